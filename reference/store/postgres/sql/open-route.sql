-- The first round trip of a resolve: the action lock, the action's route,
-- the shared publication lock and, for a new route at the caller's
-- publication, the selected replica locked with its chain, all in
-- fleetproof_open_route (sql/functions/fleetproof_open_route.sql, whose
-- header gives the locking). Sent after BEGIN in one message.
--
-- $1 action id, $2 tenant id, $3 capability id, $4 publication of the
-- eligible bindings (or null); $5 their instance ids, $6 the instances'
-- version ids, $7 the bindings' priorities; $8 now (ms); $9 required
-- capacity class, $10 required region, $11 preferred region, $12 preferred
-- zone (each or null); $13 tiebreakHash(action id).
SELECT outcome, publication, route, replica, chain
FROM fleetproof_open_route($1::text, $2::text, $3::text, $4::text, $5::text[], $6::text[], $7::bigint[], $8::bigint,
  $9::text, $10::text, $11::text, $12::text, $13::bigint)
