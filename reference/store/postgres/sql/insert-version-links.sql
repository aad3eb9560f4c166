-- The capabilities and profiles of newly admitted versions, with their
-- manifest positions. Under the exclusive publication lock.
WITH capabilities AS (
  INSERT INTO version_capabilities (version_id, capability_id, ordinal)
  SELECT * FROM unnest($1::text[], $2::text[], $3::integer[])
)
INSERT INTO version_profiles (version_id, profile_id, ordinal)
SELECT * FROM unnest($4::text[], $5::text[], $6::integer[])
