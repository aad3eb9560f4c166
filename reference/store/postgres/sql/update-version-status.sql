-- Version status changes ([records-version-status]), under the exclusive
-- publication lock.
UPDATE connector_versions v SET status = s.status
FROM unnest($1::text[], $2::text[]) AS s(version_id, status)
WHERE v.version_id = s.version_id
