// Administration, lifecycle and reader operations over HTTP: each one's
// success and the store refusals it documents.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { b, expectError, expectOk, HOUR, seedFleet, type TestRegistry } from './support.ts';

export function administrationCases(registry: () => TestRegistry): void {
  it('[records-identical-put] connector types: put, identical put, read, conflicting put, missing read', async () => {
    const api = registry();
    const type = b.connectorType('ctype_admin1');
    const first = expectOk(await api.call('putConnectorType', { params: { type_id: type.id }, body: type }));
    assert.equal(first.outcome, 'applied');
    const again = expectOk(await api.call('putConnectorType', { params: { type_id: type.id }, body: type }));
    assert.equal(again.outcome, 'unchanged');
    assert.equal(again.catalog_revision, first.catalog_revision);
    assert.deepEqual(expectOk(await api.call('getConnectorType', { params: { type_id: type.id } })), type);
    expectError(await api.call('putConnectorType', { params: { type_id: type.id }, body: { ...type, owner: 'other' } }), 409, 'CONFLICT');
    expectError(await api.call('getConnectorType', { params: { type_id: 'ctype_absent' } }), 404, 'NOT_FOUND');
  });

  it('[wire-closed-records] a body naming another record than its path is refused', async () => {
    const api = registry();
    const type = b.connectorType('ctype_admin2');
    const res = await api.call('putConnectorType', { params: { type_id: 'ctype_elsewhere' }, body: type });
    expectError(res, 400, 'INVALID_REQUEST');
    expectError(await api.call('getConnectorType', { params: { type_id: type.id } }), 404, 'NOT_FOUND');
    expectError(await api.call('getConnectorType', { params: { type_id: 'ctype_elsewhere' } }), 404, 'NOT_FOUND');
  });

  it('[records-type-enable] enabling and disabling a type; an unknown type is not found', async () => {
    const api = registry();
    await seedFleet(api, 'admin3');
    const off = expectOk(await api.call('setConnectorTypeEnabled', { params: { type_id: 'ctype_admin3' }, body: { enabled: false } }));
    assert.equal(off.outcome, 'applied');
    assert.equal(off.record.enabled, false);
    expectError(
      await api.call('setConnectorTypeEnabled', { params: { type_id: 'ctype_none' }, body: { enabled: true } }),
      404,
      'NOT_FOUND',
    );
  });

  it('[records-version-evidence] versions: admit, read, unknown type, conflicting admission, failed evidence', async () => {
    const api = registry();
    const type = b.connectorType('ctype_admin4');
    expectOk(await api.call('putConnectorType', { params: { type_id: type.id }, body: type }));
    const version = b.version('cver_admin4', type.id, [b.capability('cap.admin4')]);
    const admitted = expectOk(await api.call('admitVersion', { params: { version_id: version.id }, body: version }));
    assert.equal(admitted.record.supply_chain_qualified, true);
    assert.deepEqual(expectOk(await api.call('getVersion', { params: { version_id: version.id } })), admitted.record);
    expectError(await api.call('getVersion', { params: { version_id: 'cver_none' } }), 404, 'NOT_FOUND');
    const orphan = b.version('cver_admin4_orphan', 'ctype_none', [b.capability('cap.admin4.orphan')]);
    expectError(await api.call('admitVersion', { params: { version_id: orphan.id }, body: orphan }), 404, 'NOT_FOUND');
    expectError(
      await api.call('admitVersion', { params: { version_id: version.id }, body: { ...version, version: '9.9.9' } }),
      409,
      'CONFLICT',
    );
    const unqualified = b.version('cver_admin4_bad', type.id, [b.capability('cap.admin4.bad')], { version: '2.0.0' });
    unqualified.attestation.conformance_status = 'failed';
    expectError(await api.call('admitVersion', { params: { version_id: unqualified.id }, body: unqualified }), 422, 'ADMISSION_REJECTED');
  });

  it('[records-version-status] version status: change, revoked is terminal, unknown version', async () => {
    const api = registry();
    await seedFleet(api, 'admin5');
    const params = { version_id: 'cver_admin5' };
    assert.equal(expectOk(await api.call('setVersionStatus', { params, body: { status: 'revoked' } })).record.status, 'revoked');
    expectError(await api.call('setVersionStatus', { params, body: { status: 'active' } }), 409, 'CONFLICT');
    expectError(await api.call('setVersionStatus', { params: { version_id: 'cver_none' }, body: { status: 'active' } }), 404, 'NOT_FOUND');
    expectError(await api.call('setVersionStatus', { params, body: { status: 'candidate' } }), 400, 'INVALID_REQUEST');
  });

  it('[records-instance-revision] instances: put, read, unknown version, unrevised change', async () => {
    const api = registry();
    const f = await seedFleet(api, 'admin6');
    const instance = expectOk(await api.call('getInstance', { params: { instance_id: f.instanceId } }));
    assert.equal(instance.tenant_id, f.tenantId);
    expectError(await api.call('getInstance', { params: { instance_id: 'cinst_none' } }), 404, 'NOT_FOUND');
    const params = { instance_id: f.instanceId };
    expectError(
      await api.call('putInstance', { params, body: { ...instance, version_id: 'cver_none', config_revision: 2 } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api.call('putInstance', { params, body: { ...instance, status: 'disabled' } }), 409, 'CONFLICT');
    const disabled = expectOk(await api.call('putInstance', { params, body: { ...instance, status: 'disabled', config_revision: 2 } }));
    assert.equal(disabled.outcome, 'applied');
  });

  it('[records-binding-references] bindings: read, missing instance, unrevised change, missing read', async () => {
    const api = registry();
    const f = await seedFleet(api, 'admin7');
    const params = { tenant_id: f.tenantId, capability_id: f.capabilityId, instance_id: f.instanceId };
    const binding = expectOk(await api.call('getBinding', { params }));
    assert.equal(binding.enabled, true);
    expectError(await api.call('getBinding', { params: { ...params, capability_id: 'cap.none' } }), 404, 'NOT_FOUND');
    expectError(await api.call('putBinding', { params, body: { ...binding, priority: 5 } }), 409, 'CONFLICT');
    const orphanParams = { ...params, instance_id: 'cinst_none' };
    expectError(await api.call('putBinding', { params: orphanParams, body: { ...binding, instance_id: 'cinst_none' } }), 404, 'NOT_FOUND');
  });

  it('[records-policy-revision] admission policies: put, read, unrevised change, missing read', async () => {
    const api = registry();
    const policy = b.policy('policy-admin8');
    const params = { policy_ref: policy.policy_ref };
    assert.equal(expectOk(await api.call('putAdmissionPolicy', { params, body: policy })).outcome, 'applied');
    assert.deepEqual(expectOk(await api.call('getAdmissionPolicy', { params })), policy);
    expectError(await api.call('putAdmissionPolicy', { params, body: { ...policy, max_tenant_in_flight: 3 } }), 409, 'CONFLICT');
    expectError(await api.call('getAdmissionPolicy', { params: { policy_ref: 'policy-none' } }), 404, 'NOT_FOUND');
    expectError(
      await api.call('putAdmissionPolicy', { params, body: { ...policy, revision: 2, circuit_open_ms: 5 } }),
      400,
      'INVALID_REQUEST',
    );
  });

  it('[admission-counter-read] a counter never used reads as 0', async () => {
    const api = registry();
    const counter = expectOk(await api.call('getAdmissionCounter', { params: { kind: 'tenant', key: 'tenant-never' } }));
    assert.deepEqual(counter, { kind: 'tenant', key: 'tenant-never', active: 0 });
  });

  it('[records-replica-provision] replicas: provision, read with registry-owned state, unknown instance, conflicting provision', async () => {
    const api = registry();
    const f = await seedFleet(api, 'admin9');
    const replica = expectOk(await api.call('getReplica', { params: { replica_id: f.replicaIds[0]! } }));
    assert.equal(replica.active_assignments, 0);
    assert.equal(replica.circuit.state, 'closed');
    expectError(await api.call('getReplica', { params: { replica_id: 'crepl_none' } }), 404, 'NOT_FOUND');
    const { active_assignments: _a, circuit: _c, ...provision } = replica;
    const orphan = { ...provision, id: 'crepl_admin9_orphan', instance_id: 'cinst_none' };
    expectError(await api.call('provisionReplica', { params: { replica_id: orphan.id }, body: orphan }), 404, 'NOT_FOUND');
    expectError(
      await api.call('provisionReplica', {
        params: { replica_id: provision.id },
        body: { ...provision, endpoint: 'https://elsewhere.invalid/' },
      }),
      409,
      'CONFLICT',
    );
    expectError(await api.call('provisionReplica', { params: { replica_id: provision.id }, body: replica }), 400, 'INVALID_REQUEST');
  });

  it('[records-replica-health] health reports: newer revision applies, same revision conflicts, unknown replica', async () => {
    const api = registry();
    const f = await seedFleet(api, 'admin10');
    const params = { replica_id: f.replicaIds[0]! };
    const report = b.health(2, api.clock.now() + 2 * HOUR, { status: 'draining' });
    const applied = expectOk(await api.call('reportHealth', { params, body: report }));
    assert.equal(applied.record.status, 'draining');
    expectError(await api.call('reportHealth', { params, body: { ...report, capacity: 3 } }), 409, 'CONFLICT');
    expectError(await api.call('reportHealth', { params: { replica_id: 'crepl_none' }, body: report }), 404, 'NOT_FOUND');
  });

  it('[batch-items] a batch applies items in order, each with its own result', async () => {
    const api = registry();
    const type = b.connectorType('ctype_admin11');
    const version = b.version('cver_admin11', type.id, [b.capability('cap.admin11')]);
    const items = [
      { op: 'put_connector_type', record: type },
      { op: 'admit_version', record: version },
      { op: 'put_connector_type', record: { ...type, owner: 'someone else' } },
      { op: 'set_version_status', id: 'cver_none', status: 'active' },
      { op: 'put_connector_type', record: type },
      { op: 'report_health', id: 'crepl_none', report: { not: 'a report' } },
    ];
    const res = expectOk(await api.call('applyBatch', { body: { items } }));
    assert.deepEqual(
      res.results.map((r: { outcome: string; error?: { code: string } }) => r.error?.code ?? r.outcome),
      ['applied', 'applied', 'CONFLICT', 'NOT_FOUND', 'unchanged', 'INVALID_REQUEST'],
    );
    assert.equal(expectOk(await api.call('getVersion', { params: { version_id: version.id } })).id, version.id);
    expectError(await api.call('applyBatch', { body: { items: [] } }), 400, 'INVALID_REQUEST');
    expectError(await api.call('applyBatch', { body: { items: [{ op: 'delete_everything' }] } }), 400, 'INVALID_REQUEST');
  });
}
