-- The route of an action, if any. Read without a row lock: its assignment is
-- immutable, and its reservation changes only under this action's advisory
-- lock or under the replica's row lock (lease expiry), which every writer of
-- the reservation takes before touching the route.
SELECT tenant_id, reserved, last_settlement, assignment
FROM route_assignments
WHERE action_id = $1
