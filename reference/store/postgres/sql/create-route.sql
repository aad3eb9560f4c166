-- Creates a route, the last write of a resolve, sent with the COMMIT:
-- fleetproof_create_route (sql/functions/fleetproof_create_route.sql, whose
-- header gives the locking) reserves every scope of the attempt, takes one
-- unit of the replica locked by the opening call and stores the assignment,
-- or refuses with the first scope at its limit, aborting the transaction.
--
-- $1 scope kinds, $2 scope keys, $3 scope limits; $4 replica id; $5 action
-- id, $6 tenant id, $7 capability id, $8 fence token, $9 scopes json,
-- $10 assignment json, $11 now (ms), $12 pinned version id.
SELECT fleetproof_create_route($1::text[], $2::text[], $3::bigint[], $4::text, $5::text, $6::text, $7::text, $8::text,
  $9::json, $10::json, $11::bigint, $12::text)
