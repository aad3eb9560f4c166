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
