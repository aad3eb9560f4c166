-- The reservations held on replicas being expired. Their route rows are only
-- ever locked by a transaction that holds the replica's row lock first, and
-- this transaction holds it, so these locks are granted without waiting.
SELECT action_id, reservation_scopes
FROM route_assignments
WHERE replica_id = ANY($1::text[]) AND reserved
ORDER BY action_id
FOR UPDATE
