-- Uniqueness owners for admissions ([records-version-unique]): which version,
-- if any, holds each (type, version string) and each artifact digest. No lock:
-- the exclusive publication lock orders every admission.
SELECT v.version_id, v.type_id, v.version, v.artifact_digest
FROM connector_versions v
WHERE (v.type_id, v.version) IN (SELECT * FROM unnest($1::text[], $2::text[]))
   OR v.artifact_digest = ANY($3::text[])
