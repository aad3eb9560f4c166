-- Capability definitions by id, with their canonical size. Definitions never
-- change once stored, so no lock is needed by any reader.
SELECT capability_id, definition, canonical_size
FROM capability_definitions
WHERE capability_id = ANY($1::text[])
