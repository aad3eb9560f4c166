-- Stores admitted versions. Under the exclusive publication lock; the unique
-- constraints back the [records-version-unique] decision already made.
INSERT INTO connector_versions
  (version_id, type_id, version, status, artifact_digest, manifest_digest, supply_chain_qualified, admitted_at_ms, attestation)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::bigint[], $9::json[])
