-- Writes connector types decided by the store (created, or `enabled` changed).
-- Runs under the exclusive publication lock; no other lock is needed.
INSERT INTO connector_types (type_id, enabled, record)
SELECT * FROM unnest($1::text[], $2::boolean[], $3::json[])
ON CONFLICT (type_id) DO UPDATE SET enabled = EXCLUDED.enabled, record = EXCLUDED.record
