-- The tenant view of the catalog ([catalog-tenant-visibility]): each
-- capability one of the tenant's bindings with a valid chain reaches
-- (fleetproof_valid_bindings), with its canonical size and the profiles of
-- the versions those bindings' instances run. One row per visible
-- capability, so a tenant with many bindings per capability costs the
-- database its joins, not the store a row per binding; sizes and profiles
-- are looked up once per capability, after the bindings are grouped.
-- Runs after the shared publication lock, so the view is of one revision.
-- Indexes that can serve it: the tenant's instances
-- (connector_instances_by_tenant) to their enabled bindings
-- (capability_bindings_enabled_by_instance), or the bindings' primary key
-- prefix (tenant_id); postgres-scale-plans.test.ts checks that neither
-- bindings nor replicas are scanned whole.
WITH visible AS (
  SELECT vb.capability_id, array_agg(DISTINCT vb.version_id) AS version_ids
  FROM fleetproof_valid_bindings($1) vb
  GROUP BY vb.capability_id
)
SELECT v.capability_id, d.canonical_size,
  ARRAY(SELECT DISTINCT vp.profile_id FROM version_profiles vp WHERE vp.version_id = ANY (v.version_ids)) AS profile_ids
FROM visible v
JOIN capability_definitions d ON d.capability_id = v.capability_id
