-- Serialises lifecycle writes per replica id, including ids not provisioned
-- yet (a row lock needs a row): a transaction-scoped advisory lock in the
-- two-key space ("FPRE", hashtext(id)), apart from the catalog publication
-- lock. Taken in id order, so two batches never wait on each other in a
-- cycle; a concurrent provisioning of the same id waits here and then sees
-- the other's committed row. Ids arrive sorted; the subquery keeps the order.
SELECT count(pg_advisory_xact_lock(1179669061, hashtext(s.id)))
FROM (SELECT id FROM unnest($1::text[]) AS u(id) ORDER BY id COLLATE "C") AS s
