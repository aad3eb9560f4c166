-- The tenant view of the catalog ([catalog-tenant-visibility]): each
-- capability one of the tenant's bindings with a valid chain reaches, with
-- its canonical size and the profiles of the versions those bindings'
-- instances run. One row per visible capability. The chain rule's two
-- halves (fleetproof_valid_bindings' header) are joined per distinct
-- version and capability rather than per binding: a tenant's bindings are
-- many instances running few versions, so the versions' half is probed once
-- per pair (100 probes for the 1,000 bindings of an aip-fleet-slo-v1 tenant,
-- not 1,000); the join names the identifiers' "C" collation, which the
-- functions' result columns lose, so that it probes the indexes. Sizes and
-- profiles are looked up once per capability.
-- Runs after the shared publication lock, so the view is of one revision.
-- Indexes that can serve it: the tenant's instances
-- (connector_instances_by_tenant) to their enabled bindings
-- (capability_bindings_enabled_by_instance), or the bindings' primary key
-- prefix (tenant_id); postgres-scale-plans.test.ts checks that neither
-- bindings nor replicas are scanned whole.
WITH pairs AS (
  SELECT DISTINCT tb.capability_id, tb.version_id
  FROM fleetproof_tenant_bindings($1) tb
), visible AS (
  SELECT p.capability_id, array_agg(p.version_id) AS version_ids
  FROM pairs p
  JOIN fleetproof_serving_versions() s ON s.version_id = p.version_id COLLATE "C" AND s.capability_id = p.capability_id COLLATE "C"
  GROUP BY p.capability_id
)
SELECT v.capability_id, d.canonical_size,
  ARRAY(SELECT DISTINCT vp.profile_id FROM version_profiles vp WHERE vp.version_id = ANY (v.version_ids)) AS profile_ids
FROM visible v
JOIN capability_definitions d ON d.capability_id = v.capability_id
