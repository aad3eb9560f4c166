-- fleetproof_route_key: where a candidate replica stands in [route-order]
-- within one binding priority (fleetproof_take_replica takes the priorities
-- one at a time, lowest first), the domain's route order (domain/ordering.ts)
-- restated for locking and written once for the two places that order
-- candidates: the best candidate's top-1 scan and the walk that skips held
-- rows. One bigint, compared as fast as a column: the requested region
-- missed (bit 53), then the zone (bit 52), then the active assignments (bits
-- 32 to 51: a capacity is at most 1,000,000 < 2^20), then the [route-tiebreak]
-- key, the replica's hash XOR the action's (bits 0 to 31). Equal keys fall
-- to instance id, then replica id, in byte order, which each caller adds.
--
-- Locks: none; it reads only its arguments. A single-expression SQL function
-- that is neither STRICT nor SECURITY DEFINER is inlined by the planner into
-- the query that calls it; IMMUTABLE is true of it and keeps it inlinable.
--
-- Parameters: the replica row; preferred region and zone or null; the
-- action's tie-break half.
CREATE OR REPLACE FUNCTION fleetproof_route_key(r connector_replicas, p_region text, p_zone text, p_tiebreak bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN p_region IS NULL OR r.region = p_region THEN 0 ELSE 1 END::bigint << 53)
    | (CASE WHEN p_zone IS NULL OR r.zone = p_zone THEN 0 ELSE 1 END::bigint << 52)
    | (least(r.active_assignments, 1048575) << 32)
    | (r.tiebreak_hash # p_tiebreak)
$$;
