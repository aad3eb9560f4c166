-- Connector types by id. No lock: catalog writers read under the exclusive
-- publication lock, which already excludes every other catalog writer.
SELECT type_id, record, enabled
FROM connector_types
WHERE type_id = ANY($1::text[])
