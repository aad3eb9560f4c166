-- The chain rule of a binding ([catalog-tenant-visibility],
-- [route-binding-unavailable]) is stated once for the database, in
-- fleetproof_valid_bindings: a resolve takes one capability's rows of it
-- (fleetproof_eligible_bindings, now written over it), and the catalog's
-- tenant view takes a tenant's rows aggregated per capability, so a tenant
-- view costs the store one row per visible capability instead of one per
-- binding with its whole chain; a new index finds a tenant's instances
-- without a scan of every instance. The functions are
-- copied from sql/functions/, where every function's current body lives;
-- postgres-functions.test.ts checks that the migrations install exactly
-- those bodies.

CREATE INDEX connector_instances_by_tenant ON connector_instances (tenant_id);

-- fleetproof_valid_bindings: a tenant's bindings whose chain holds
-- ([catalog-tenant-visibility], [route-binding-unavailable]): the binding is
-- enabled, its instance is enabled and the tenant's, the instance's version
-- is active, supply-chain qualified and implements the capability, and its
-- connector type is enabled. This is the domain rule bindingChainValid
-- (domain/eligibility.ts) restated once for the database: a resolve takes
-- one capability's rows (fleetproof_eligible_bindings), the catalog's tenant
-- view takes them all (catalog-tenant-view.sql); the store behaviour suite
-- holds the two stores to the same answers.
--
-- A plain SQL function that PostgreSQL inlines into the statement calling
-- it, so the caller's filter on capability_id reaches the primary key
-- (tenant_id, capability_id) and each chain link stays a primary key probe.
--
-- Locks: none. Callers run it under the shared publication lock, so no
-- catalog write commits meanwhile and the rows belong to one publication.
CREATE OR REPLACE FUNCTION fleetproof_valid_bindings(p_tenant_id text)
RETURNS TABLE (capability_id text, priority bigint, instance_id text, version_id text)
LANGUAGE sql STABLE AS $$
  SELECT b.capability_id, b.priority, b.instance_id, i.version_id
  FROM capability_bindings b
  JOIN connector_instances i ON i.instance_id = b.instance_id
  JOIN connector_versions v ON v.version_id = i.version_id
  JOIN connector_types t ON t.type_id = v.type_id
  WHERE b.tenant_id = p_tenant_id AND b.enabled
    AND i.status = 'enabled' AND i.tenant_id = b.tenant_id
    AND v.status = 'active' AND v.supply_chain_qualified AND t.enabled
    AND EXISTS (SELECT 1 FROM version_capabilities vc WHERE vc.version_id = i.version_id AND vc.capability_id = b.capability_id)
$$;

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
