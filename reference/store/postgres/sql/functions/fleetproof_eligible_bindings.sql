-- fleetproof_eligible_bindings: the bindings of one tenant and capability
-- that may take a new action ([route-binding-unavailable]): the binding is
-- enabled, its instance is enabled and the tenant's, the instance's version
-- is active, supply-chain qualified and implements the capability, and its
-- connector type is enabled. This is the domain rule bindingChainValid
-- (domain/eligibility.ts) restated so that a resolve decides in one call; the
-- store behaviour suite holds the two stores to the same answers.
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
    SELECT b.priority, b.instance_id, b.instance_id || ' ' || i.version_id AS key
    FROM capability_bindings b
    JOIN connector_instances i ON i.instance_id = b.instance_id
    JOIN connector_versions v ON v.version_id = i.version_id
    JOIN connector_types t ON t.type_id = v.type_id
    WHERE b.tenant_id = p_tenant_id AND b.capability_id = p_capability_id AND b.enabled
      AND i.status = 'enabled' AND i.tenant_id = b.tenant_id
      AND v.status = 'active' AND v.supply_chain_qualified AND t.enabled
      AND EXISTS (SELECT 1 FROM version_capabilities vc WHERE vc.version_id = i.version_id AND vc.capability_id = b.capability_id)
  )
  SELECT (SELECT coalesce(array_agg(e.key ORDER BY e.priority, e.instance_id), '{}') FROM eligible e),
    (SELECT coalesce(array_agg(t.tier_end ORDER BY t.priority), '{}')
     FROM (SELECT e.priority, (sum(count(*)) OVER (ORDER BY e.priority))::integer AS tier_end FROM eligible e GROUP BY e.priority) t)
$$;
