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
