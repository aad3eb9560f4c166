-- The first round trip of a settlement: the action lock, then the route with
-- its pinned replica row locked, in fleetproof_open_settle
-- (sql/functions/fleetproof_open_settle.sql, whose header gives the locking).
-- Sent after BEGIN in one message. $1 action id.
SELECT tenant_id, reserved, last_settlement, assignment, replica_id, consecutive_failures, circuit_open_until_ms
FROM fleetproof_open_settle($1::text)
