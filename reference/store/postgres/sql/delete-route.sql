-- Only for the deliberate reselect-on-retry fault ([pinned-identical]):
-- forgets a released route so that the retry selects a replica anew. Runs
-- under the action's advisory lock; records are otherwise never deleted.
DELETE FROM route_assignments WHERE action_id = $1 AND NOT reserved
