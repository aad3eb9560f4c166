-- Provisions new replicas ([records-replica-provision]). The draft took the
-- ids' advisory locks (lock-replica-ids.sql) and found no row, so every id is
-- new; ON CONFLICT DO NOTHING keeps an existing row untouched should that
-- ever not hold, and the caller compares RETURNING with what it provisioned.
-- Each replica keeps its instance's tenant, which never changes
-- ([records-instance-keys]), so that route selection finds a tenant's
-- replicas together (connector_replicas_by_binding_key). assignment_peer is
-- the peer fields and topology as an assignment embeds them
-- ([assignment-fields]), cut once from the record's own text: the record is
-- immutable ([records-replica-provision]), so no later write changes it.
INSERT INTO connector_replicas (replica_id, instance_id, version_id, region, zone, capacity_class, status,
  lease_expires_at_ms, capacity, health_revision, tiebreak_hash, provision, tenant_id, assignment_peer)
SELECT u.*, i.tenant_id,
  '"endpoint":' || (u.provision -> 'endpoint')::text || ',"peer_principal_id":' || (u.provision -> 'peer_principal_id')::text
  || ',"peer_principal_kind":' || (u.provision -> 'peer_principal_kind')::text || ',"peer_did":' || (u.provision -> 'peer_did')::text
  || ',"trust_domain":' || (u.provision -> 'trust_domain')::text || ',"transport_profile":'
  || (u.provision -> 'transport_profile')::text || ',"topology":' || (u.provision -> 'topology')::text
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
  $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::json[])
  AS u(replica_id, instance_id, version_id, region, zone, capacity_class, status, lease_expires_at_ms, capacity, health_revision,
    tiebreak_hash, provision)
JOIN connector_instances i ON i.instance_id = u.instance_id
ON CONFLICT (replica_id) DO NOTHING
RETURNING replica_id
