-- fleetproof_eligible_bindings: the bindings of one tenant and capability
-- that may take a new action ([route-binding-unavailable]): those whose
-- chain holds (fleetproof_valid_bindings, the domain rule bindingChainValid
-- restated once), so that a resolve decides in one call.
--
-- Returned as the candidate keys, `<instance id> <current version id>` (the
-- expression connector_replicas_by_binding_key indexes after the tenant), in priority then
-- instance id order (byte order), and the end of each priority's run in
-- them (1-based, lowest priority first).
--
-- Locks: none. fleetproof_resolve calls it under the shared publication
-- lock, so no catalog write commits meanwhile and the result belongs to the
-- publication the caller read. The primary key prefix (tenant_id,
-- capability_id) serves the lookup; each chain link is a primary key probe.
CREATE OR REPLACE FUNCTION fleetproof_eligible_bindings(p_tenant_id text, p_capability_id text,
  OUT keys text[], OUT tier_ends integer[])
LANGUAGE sql STABLE AS $$
  WITH eligible AS (
    SELECT vb.priority, vb.instance_id, vb.instance_id || ' ' || vb.version_id AS key
    FROM fleetproof_valid_bindings(p_tenant_id) vb
    WHERE vb.capability_id = p_capability_id
  )
  SELECT (SELECT coalesce(array_agg(e.key ORDER BY e.priority, e.instance_id COLLATE "C"), '{}') FROM eligible e),
    (SELECT coalesce(array_agg(t.tier_end ORDER BY t.priority), '{}')
     FROM (SELECT e.priority, (sum(count(*)) OVER (ORDER BY e.priority))::integer AS tier_end FROM eligible e GROUP BY e.priority) t)
$$;
