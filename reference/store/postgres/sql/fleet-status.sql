-- The fleet aggregate ([fleet-status]) at `now` ($1). No lock: each count is
-- of the last committed state; the aggregate carries no identifiers.
SELECT
  (SELECT revision FROM catalog_revision) AS catalog_revision,
  (SELECT count(*) FROM connector_types)::bigint AS connector_types,
  (SELECT count(*) FROM connector_versions WHERE status = 'active' AND supply_chain_qualified)::bigint AS active_versions,
  (SELECT count(*) FROM connector_instances WHERE status = 'enabled')::bigint AS enabled_instances,
  count(*)::bigint AS replicas,
  count(*) FILTER (WHERE status = 'ready' AND lease_expires_at_ms > $1)::bigint AS ready_replicas,
  count(*) FILTER (WHERE status = 'draining' AND lease_expires_at_ms > $1)::bigint AS draining_replicas,
  count(*) FILTER (WHERE status = 'offline')::bigint AS offline_replicas,
  count(*) FILTER (WHERE lease_expires_at_ms <= $1)::bigint AS expired_leases,
  coalesce(sum(capacity) FILTER (WHERE status = 'ready' AND lease_expires_at_ms > $1), 0)::bigint AS ready_capacity,
  coalesce(sum(active_assignments), 0)::bigint AS active_assignments
FROM connector_replicas
