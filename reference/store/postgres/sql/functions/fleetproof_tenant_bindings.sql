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
