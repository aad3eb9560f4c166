-- A whole resolve, as one statement committed on its own:
-- fleetproof_resolve (sql/functions/fleetproof_resolve.sql, whose header
-- gives the locking and the parameters, in this order).
SELECT outcome, detail, assignment, reserved, last_settlement, publication, keys, tier_ends, alone
FROM fleetproof_resolve($1::text, $2::text, $3::text, $4::text, $5::text[], $6::integer[], $7::bigint, $8::text, $9::text,
  $10::text, $11::text, $12::text, $13::text, $14::bigint, $15::bigint[], $16::bigint, $17::boolean)
