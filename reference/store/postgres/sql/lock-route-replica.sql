-- The route of an action with its pinned replica row locked, for a retry of
-- the pinned route (under the action's advisory lock). Locking the replica
-- first is the order every transaction follows (replica, then route, then
-- counters), the order lease expiry takes too, so the two never wait on each
-- other in a cycle. The route columns come from this statement's snapshot:
-- its assignment is immutable and a reservation can only have been released
-- meanwhile (by expiry), which the following update re-checks. The instance,
-- version and type facts serve [pinned-replica-conditions].
SELECT a.tenant_id, a.capability_id, a.version_id AS pinned_version_id, a.reserved, a.last_settlement, a.reservation_scopes, a.assignment,
  r.replica_id, r.status, r.lease_expires_at_ms, r.capacity, r.active_assignments, r.consecutive_failures,
  r.circuit_open_until_ms, r.version_id AS replica_version_id, r.region, r.zone, r.capacity_class,
  i.status AS instance_status, i.version_id AS instance_version_id, i.tenant_id AS instance_tenant_id,
  v.status AS version_status, v.supply_chain_qualified, t.enabled AS type_enabled
FROM route_assignments a
JOIN connector_replicas r ON r.replica_id = a.replica_id
LEFT JOIN connector_instances i ON i.instance_id = r.instance_id
LEFT JOIN connector_versions v ON v.version_id = a.version_id
LEFT JOIN connector_types t ON t.type_id = v.type_id
WHERE a.action_id = $1
FOR UPDATE OF r
