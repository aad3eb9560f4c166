-- Stores capability definitions seen for the first time. Definitions are
-- immutable; the exclusive publication lock makes the decision "new" exact.
INSERT INTO capability_definitions (capability_id, canonical_size, definition)
SELECT * FROM unnest($1::text[], $2::integer[], $3::json[])
