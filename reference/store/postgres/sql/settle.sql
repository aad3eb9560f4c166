-- A whole settlement, as one statement committed on its own:
-- fleetproof_settle (sql/functions/fleetproof_settle.sql, whose header gives
-- the locking and the parameters, in this order).
SELECT outcome, last_settlement, assignment
FROM fleetproof_settle($1::text, $2::text, $3::text, $4::text, $5::bigint, $6::boolean, $7::boolean)
