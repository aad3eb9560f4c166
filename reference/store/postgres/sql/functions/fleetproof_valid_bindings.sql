-- fleetproof_valid_bindings: a tenant's bindings whose chain holds
-- ([catalog-tenant-visibility], [route-binding-unavailable]): the binding is
-- enabled, its instance is enabled and the tenant's
-- (fleetproof_tenant_bindings), and the instance's version is active,
-- supply-chain qualified and implements the capability, and its connector
-- type is enabled (fleetproof_serving_versions). This is the domain rule
-- bindingChainValid (domain/eligibility.ts) restated once for the database,
-- in those two halves: a resolve takes one capability's rows of this
-- function (fleetproof_eligible_bindings); the catalog's tenant view
-- (catalog-tenant-view.sql) joins the halves per distinct version and
-- capability. The store behaviour suite holds the two stores to the same
-- answers.
--
-- A plain SQL function that PostgreSQL inlines into the statement calling
-- it, so the caller's filter on capability_id reaches the primary key
-- (tenant_id, capability_id) and each chain link stays a primary key probe.
-- A function's result columns lose the "C" collation of the identifiers they
-- carry, so the join names it: at the default collation it could not use
-- the indexes, and the versions' half would be scanned whole.
--
-- Locks: none. Callers run it under the shared publication lock, so no
-- catalog write commits meanwhile and the rows belong to one publication.
CREATE OR REPLACE FUNCTION fleetproof_valid_bindings(p_tenant_id text)
RETURNS TABLE (capability_id text, priority bigint, instance_id text, version_id text)
LANGUAGE sql STABLE AS $$
  SELECT tb.capability_id, tb.priority, tb.instance_id, tb.version_id
  FROM fleetproof_tenant_bindings(p_tenant_id) tb
  JOIN fleetproof_serving_versions() s
    ON s.version_id = tb.version_id COLLATE "C" AND s.capability_id = tb.capability_id COLLATE "C"
$$;
