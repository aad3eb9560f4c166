import { raceDefect } from '../defect.ts';
import { pauseMs } from '../support/pauses.ts';

/**
 * PostgreSQL: fleetproof_reserve_scopes, the one place a new route or a
 * retry reserves its scopes, stands in checked apart from its write: each
 * scope is checked by a plain read, which takes no lock, and, 50 ms later,
 * taken without its limit, so attempts that checked meanwhile all take the
 * last unit.
 */
const RESERVE_SCOPES_CHECKED_APART = `
CREATE FUNCTION fleetproof_reserve_scopes(p_kinds text[], p_keys text[], p_limits bigint[])
RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_active bigint;
BEGIN
  FOR i IN 1 .. coalesce(cardinality(p_kinds), 0) LOOP
    SELECT c.active INTO v_active FROM admission_counters c WHERE c.scope_kind = p_kinds[i] AND c.scope_key = p_keys[i];
    IF coalesce(v_active, 0) >= p_limits[i] THEN
      PERFORM fleetproof_refuse('capacity:' || p_kinds[i]);
    END IF;
  END LOOP;
  PERFORM pg_sleep(0.05);
  FOR i IN 1 .. coalesce(cardinality(p_kinds), 0) LOOP
    INSERT INTO admission_counters AS c (scope_kind, scope_key, active) VALUES (p_kinds[i], p_keys[i], 1)
    ON CONFLICT (scope_kind, scope_key) DO UPDATE SET active = c.active + 1;
  END LOOP;
END
$$;
`;

/**
 * Memory: a new route decides its replica and scopes, lets other requests
 * decide meanwhile (for about a storage round trip: requests sent together
 * reach a server a millisecond or more apart), then commits what it decided.
 */
export default raceDefect({
  name: 'capacity-outside-lock',
  clause: 'admission-never-overbooked',
  does: 'capacity and scopes are checked, then reserved after a pause in which other attempts check the same counters',
  stores: ['memory', 'postgres'],
  hooks: { newRoutePlan: pauseMs(10), standInFunctions: RESERVE_SCOPES_CHECKED_APART },
});
