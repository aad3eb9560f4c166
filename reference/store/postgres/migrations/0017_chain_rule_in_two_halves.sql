-- The binding chain rule, stated once for the database, in two halves:
-- fleetproof_tenant_bindings (the binding and its instance) and
-- fleetproof_serving_versions (the version and its connector type serving
-- the capability). fleetproof_valid_bindings joins them per binding, as
-- before; the catalog's tenant view joins them per distinct version and
-- capability, so a tenant whose 1,000 bindings reach 100 such pairs costs
-- 100 probes of the versions' half instead of 1,000. The functions are
-- copied from sql/functions/, where every function's current body lives;
-- postgres-functions.test.ts checks that the migrations install exactly
-- those bodies.

-- fleetproof_tenant_bindings: the half of the binding chain rule
-- ([catalog-tenant-visibility], [route-binding-unavailable]) that belongs
-- to the tenant: the binding is enabled, and its instance is enabled and the
-- tenant's. The other half, the instance's version serving the capability,
-- is fleetproof_serving_versions; fleetproof_valid_bindings joins the two
-- per binding, and the catalog's tenant view joins them per distinct version
-- and capability, since a tenant's many bindings reach few of those pairs.
--
-- A plain SQL function that PostgreSQL inlines into the statement calling
-- it, so a caller's filter on capability_id reaches the primary key
-- (tenant_id, capability_id).
--
-- Locks: none. Callers run it under the shared publication lock, so no
-- catalog write commits meanwhile and the rows belong to one publication.
CREATE OR REPLACE FUNCTION fleetproof_tenant_bindings(p_tenant_id text)
RETURNS TABLE (capability_id text, priority bigint, instance_id text, version_id text)
LANGUAGE sql STABLE AS $$
  SELECT b.capability_id, b.priority, b.instance_id, i.version_id
  FROM capability_bindings b
  JOIN connector_instances i ON i.instance_id = b.instance_id
  WHERE b.tenant_id = p_tenant_id AND b.enabled
    AND i.status = 'enabled' AND i.tenant_id = b.tenant_id
$$;

-- fleetproof_serving_versions: the half of the binding chain rule
-- ([catalog-tenant-visibility], [route-binding-unavailable]) that belongs
-- to the version: each version and capability it implements, where the
-- version is active and supply-chain qualified and its connector type is
-- enabled. fleetproof_tenant_bindings is the other half.
--
-- A plain SQL function that PostgreSQL inlines and flattens into the
-- statement calling it, so a caller's join on (version_id, capability_id)
-- becomes primary key probes, never a scan of every version.
--
-- Locks: none; callers hold the shared publication lock.
CREATE OR REPLACE FUNCTION fleetproof_serving_versions()
RETURNS TABLE (version_id text, capability_id text)
LANGUAGE sql STABLE AS $$
  SELECT vc.version_id, vc.capability_id
  FROM version_capabilities vc
  JOIN connector_versions v ON v.version_id = vc.version_id
  JOIN connector_types t ON t.type_id = v.type_id
  WHERE v.status = 'active' AND v.supply_chain_qualified AND t.enabled
$$;

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

