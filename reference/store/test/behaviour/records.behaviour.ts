// Records and what may change (spec.md §4).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUnchangedBy, rejectsWith } from './expect.ts';
import { b, HOUR, withWorld, type StoreFactory } from './world.ts';

export function recordsBehaviour(factory: StoreFactory): void {
  describe('records', () => {
    it('[records-identical-put] identical writes are unchanged and keep the revision', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'ident' });
        const rev = await w.store.catalogRevision();
        const results = [
          await w.store.putConnectorType(b.connectorType(f.typeId)),
          await w.store.admitVersion(f.version),
          await w.store.putInstance(f.instance),
          await w.store.putBinding(f.binding),
          await w.store.provisionReplica(f.replicas[0]!),
          await w.store.setVersionStatus(f.version.id, 'active'),
          await w.store.setConnectorTypeEnabled(f.typeId, true),
        ];
        for (const r of results) assert.equal(r.outcome, 'unchanged');
        assert.equal(await w.store.catalogRevision(), rev);
      }));

    it('[records-type-immutable] a type with any different field conflicts', () =>
      withWorld(factory, async (w) => {
        await w.store.putConnectorType(b.connectorType('ctype_imm'));
        await rejectsWith(w.store.putConnectorType(b.connectorType('ctype_imm', { owner: 'someone else' })), 'CONFLICT');
        await rejectsWith(w.store.putConnectorType(b.connectorType('ctype_imm', { enabled: false })), 'CONFLICT');
      }));

    it('[records-type-enable] enabling toggles through its own operation', () =>
      withWorld(factory, async (w) => {
        await rejectsWith(w.store.setConnectorTypeEnabled('ctype_missing', false), 'NOT_FOUND');
        await w.store.putConnectorType(b.connectorType('ctype_en'));
        const off = await w.store.setConnectorTypeEnabled('ctype_en', false);
        assert.equal(off.outcome, 'applied');
        assert.equal(off.record.enabled, false);
        assert.equal((await w.store.setConnectorTypeEnabled('ctype_en', false)).outcome, 'unchanged');
      }));

    it('[records-version-immutable] a different admission under an existing id conflicts', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'vimm' });
        await rejectsWith(w.store.admitVersion({ ...f.version, version: '9.9.9' }), 'CONFLICT');
      }));

    it('[records-version-unique] artifact digests and version strings are unique', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'uniq' });
        const caps = f.version.manifest.capabilities;
        const sameString = b.version('cver_uniq_two', f.typeId, caps, {
          attestation: { ...f.version.attestation, artifact_digest: b.fakeDigest('other') },
        });
        await rejectsWith(w.store.admitVersion(sameString), 'CONFLICT');
        const sameArtifact = { ...b.version('cver_uniq_three', f.typeId, caps, { version: '2.0.0' }), attestation: f.version.attestation };
        await rejectsWith(w.store.admitVersion(sameArtifact), 'CONFLICT');
      }));

    it('[records-version-type-exists] unknown types are not found, disabled ones refuse admission', () =>
      withWorld(factory, async (w) => {
        await rejectsWith(w.store.admitVersion(b.version('cver_orphan', 'ctype_nope', [b.capability('cap:o')])), 'NOT_FOUND');
        await w.store.putConnectorType(b.connectorType('ctype_off', { enabled: false }));
        await rejectsWith(w.store.admitVersion(b.version('cver_off', 'ctype_off', [b.capability('cap:o')])), 'ADMISSION_REJECTED');
      }));

    it('[records-version-evidence] owner and every evidence status must pass', () =>
      withWorld(factory, async (w) => {
        await w.store.putConnectorType(b.connectorType('ctype_ev'));
        const caps = [b.capability('cap:ev')];
        await rejectsWith(w.store.admitVersion(b.version('cver_ev1', 'ctype_ev', caps, { owner: 'intruder' })), 'ADMISSION_REJECTED');
        for (const field of ['conformance_status', 'vulnerability_policy_status', 'license_policy_status', 'revocation_status'] as const) {
          const v = b.version(`cver_ev_${field.length}`, 'ctype_ev', caps);
          for (const status of ['failed', 'not_evaluated'] as const) {
            await rejectsWith(w.store.admitVersion({ ...v, attestation: { ...v.attestation, [field]: status } }), 'ADMISSION_REJECTED');
          }
        }
        const ok = await w.store.admitVersion(b.version('cver_ev_ok', 'ctype_ev', caps));
        assert.equal(ok.record.supply_chain_qualified, true);
      }));

    it('[records-version-manifest-digest] the manifest digest must match the canonical manifest', () =>
      withWorld(factory, async (w) => {
        await w.store.putConnectorType(b.connectorType('ctype_md'));
        const v = b.version('cver_md', 'ctype_md', [b.capability('cap:md')]);
        await rejectsWith(w.store.admitVersion({ ...v, manifest_digest: b.fakeDigest('wrong') }), 'ADMISSION_REJECTED');
      }));

    it('[records-version-manifest-shape] profiles are present and ids are not repeated', () =>
      withWorld(factory, async (w) => {
        await w.store.putConnectorType(b.connectorType('ctype_ms'));
        const cap = b.capability('cap:ms');
        await rejectsWith(w.store.admitVersion(b.version('cver_ms1', 'ctype_ms', [cap, cap])), 'INVALID_REQUEST');
        await rejectsWith(
          w.store.admitVersion(b.version('cver_ms2', 'ctype_ms', [cap], { profiles: ['p.one', 'p.one'] })),
          'INVALID_REQUEST',
        );
        await rejectsWith(w.store.admitVersion(b.version('cver_ms3', 'ctype_ms', [cap], { profiles: [] })), 'INVALID_REQUEST');
      }));

    it('[records-version-limits] oversized capabilities are refused at admission', () =>
      withWorld(factory, async (w) => {
        await w.store.putConnectorType(b.connectorType('ctype_big'));
        const huge = b.capability('cap:big', { description: 'x'.repeat(w.store.limits.max_capability_bytes) });
        await rejectsWith(w.store.admitVersion(b.version('cver_big', 'ctype_big', [huge])), 'ADMISSION_REJECTED');
        const many = Array.from({ length: w.store.limits.max_capabilities_per_version + 1 }, (_, i) => b.capability(`cap:many:${i}`));
        await rejectsWith(w.store.admitVersion(b.version('cver_many', 'ctype_big', many)), 'ADMISSION_REJECTED');
      }));

    it('[records-capability-contract] the first definition of a capability id wins', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'contract', capabilities: ['cap:shared'] });
        await w.store.putConnectorType(b.connectorType('ctype_second'));
        const changed = b.capability('cap:shared', { input_schema: { type: 'object', required: ['query'] } });
        await rejectsWith(w.store.admitVersion(b.version('cver_second', 'ctype_second', [changed])), 'CONFLICT');
        const same = await w.store.admitVersion(b.version('cver_second_ok', 'ctype_second', f.version.manifest.capabilities));
        assert.equal(same.outcome, 'applied');
      }));

    it('[records-version-status] admitted and active move freely; revoked is terminal', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'status' });
        await rejectsWith(w.store.setVersionStatus('cver_unknown', 'active'), 'NOT_FOUND');
        await rejectsWith(w.store.setVersionStatus(f.version.id, 'candidate' as never), 'INVALID_REQUEST');
        assert.equal((await w.store.setVersionStatus(f.version.id, 'admitted')).outcome, 'applied');
        assert.equal((await w.store.setVersionStatus(f.version.id, 'active')).outcome, 'applied');
        assert.equal((await w.store.setVersionStatus(f.version.id, 'revoked')).outcome, 'applied');
        assert.equal((await w.store.setVersionStatus(f.version.id, 'revoked')).outcome, 'unchanged');
        await rejectsWith(w.store.setVersionStatus(f.version.id, 'active'), 'CONFLICT');
      }));

    it('[records-instance-keys] type and tenant never change; the version must fit', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'ikeys' });
        const next = { ...f.instance, config_revision: 2 };
        await rejectsWith(w.store.putInstance({ ...next, tenant_id: 'tenant-z' }), 'CONFLICT');
        await rejectsWith(w.store.putInstance({ ...next, version_id: 'cver_missing' }), 'NOT_FOUND');
        const other = await w.fleet({ name: 'ikeys_other' });
        await rejectsWith(w.store.putInstance({ ...next, connector_type_id: other.typeId }), 'CONFLICT');
        await rejectsWith(w.store.putInstance({ ...next, version_id: other.version.id }), 'INVALID_REQUEST');
      }));

    it('[records-instance-revision] changes need a larger config_revision', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'irev' });
        await rejectsWith(w.store.putInstance({ ...f.instance, status: 'disabled' }), 'CONFLICT');
        const applied = await w.store.putInstance({ ...f.instance, status: 'disabled', config_revision: 2 });
        assert.equal(applied.outcome, 'applied');
      }));

    it('[records-instance-rollout] a rollout may not drop a capability of an enabled binding', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'roll', capabilities: ['cap:roll:a', 'cap:roll:b'] });
        const narrow = b.version('cver_roll_2', f.typeId, [b.capability('cap:roll:a')], { version: '2.0.0' });
        await w.store.admitVersion(narrow);
        await rejectsWith(w.store.putInstance({ ...f.instance, version_id: narrow.id, config_revision: 2 }), 'CONFLICT');
        await w.store.putBinding({ ...f.binding, capability_id: 'cap:roll:b', enabled: false, policy_revision: 2 });
        assert.equal((await w.store.putInstance({ ...f.instance, version_id: narrow.id, config_revision: 2 })).outcome, 'applied');
      }));

    it('[records-binding-references] bindings reference an owned instance, an implemented capability and a policy', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'bref' });
        await rejectsWith(w.store.putBinding(b.binding('tenant-a', f.capabilityIds[0]!, 'cinst_missing')), 'NOT_FOUND');
        await rejectsWith(w.store.putBinding(b.binding('tenant-other', f.capabilityIds[0]!, f.instance.id)), 'INVALID_REQUEST');
        await rejectsWith(w.store.putBinding(b.binding('tenant-a', 'cap:not-implemented', f.instance.id)), 'INVALID_REQUEST');
        await rejectsWith(w.store.putBinding({ ...f.binding, quota_policy_ref: 'quota:none', policy_revision: 5 }), 'NOT_FOUND');
      }));

    it('[records-binding-revision] new bindings start anywhere, changes need a larger policy_revision', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'brev', capabilities: ['cap:brev:a', 'cap:brev:b'], bound: ['cap:brev:a'] });
        await w.store.putBinding({ ...b.binding('tenant-a', 'cap:brev:b', f.instance.id), policy_revision: 0 });
        await rejectsWith(w.store.putBinding({ ...f.binding, priority: 9 }), 'CONFLICT');
        assert.equal((await w.store.putBinding({ ...f.binding, priority: 9, policy_revision: 2 })).outcome, 'applied');
      }));

    it('[records-policy-bounds] policy limits are bounded', () =>
      withWorld(factory, async (w) => {
        for (const bad of [
          { revision: 0 },
          { max_tenant_in_flight: 0 },
          { max_binding_in_flight: 4294967296 },
          { circuit_failure_threshold: 0 },
          { circuit_open_ms: 99 },
          { circuit_open_ms: 3600001 },
        ]) {
          await rejectsWith(w.store.putAdmissionPolicy(b.policy('quota:bounds', bad)), 'INVALID_REQUEST');
        }
        assert.equal((await w.store.putAdmissionPolicy(b.policy('quota:bounds', { circuit_open_ms: 100 }))).outcome, 'applied');
      }));

    it('[records-policy-revision] policy changes need a larger revision', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:rev'));
        await rejectsWith(w.store.putAdmissionPolicy(b.policy('quota:rev', { max_tenant_in_flight: 3 })), 'CONFLICT');
        assert.equal(
          (await w.store.putAdmissionPolicy(b.policy('quota:rev', { max_tenant_in_flight: 3, revision: 2 }))).outcome,
          'applied',
        );
      }));

    it('[records-replica-provision] replicas start empty at the current version; provisioning is create-only', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'prov' });
        const r = f.replicas[0]!;
        const stored = (await w.store.getReplica(r.id))!;
        assert.equal(stored.active_assignments, 0);
        assert.deepEqual(stored.circuit, { state: 'closed', consecutive_failures: 0, open_until: null });
        await rejectsWith(w.store.provisionReplica({ ...r, endpoint: 'https://elsewhere.invalid/' }), 'CONFLICT');
        await rejectsWith(w.store.provisionReplica({ ...r, id: 'crepl_prov_new', instance_id: 'cinst_missing' }), 'NOT_FOUND');
        const other = await w.fleet({ name: 'prov_other' });
        await rejectsWith(w.store.provisionReplica({ ...r, id: 'crepl_prov_new', version_id: other.version.id }), 'INVALID_REQUEST');
      }));

    it('[records-replica-health] health changes need a larger health_revision, also after a rollout', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'health' });
        const r = f.replicas[0]!;
        const same = await w.store.reportHealth(r.id, b.health(1, w.now() + HOUR, { capacity: r.capacity }));
        assert.equal(same.outcome, 'unchanged');
        await rejectsWith(w.store.reportHealth(r.id, b.health(1, w.now() + HOUR, { status: 'draining' })), 'CONFLICT');
        await rejectsWith(w.store.reportHealth('crepl_nobody', b.health(2, w.now() + HOUR)), 'NOT_FOUND');
        const v2 = b.version('cver_health_2', f.typeId, f.version.manifest.capabilities, { version: '2.0.0' });
        await w.store.admitVersion(v2);
        await w.store.putInstance({ ...f.instance, version_id: v2.id, config_revision: 2 });
        const drained = await w.store.reportHealth(r.id, b.health(2, w.now() + HOUR, { status: 'draining' }));
        assert.equal(drained.record.status, 'draining');
      }));

    it('[records-replica-capacity] capacity may not drop below the active assignments', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'cap', capacity: 5 });
        await w.resolve('tenant-a', 'act-cap-1', f.capabilityIds[0]!);
        await w.resolve('tenant-a', 'act-cap-2', f.capabilityIds[0]!);
        const r = f.replicas[0]!;
        await assertUnchangedBy(w, [f], () => w.store.reportHealth(r.id, b.health(2, w.now() + HOUR, { capacity: 1 })), 'CONFLICT');
        assert.equal((await w.store.reportHealth(r.id, b.health(2, w.now() + HOUR, { capacity: 2 }))).outcome, 'applied');
        await rejectsWith(w.store.provisionReplica({ ...r, id: 'crepl_cap_x', active_assignments: 1 } as never), 'INVALID_REQUEST');
      }));

    it('[records-no-credentials] references only: credential fields are refused', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'cred' });
        await rejectsWith(w.store.putInstance({ ...f.instance, config_revision: 2, secret_provider_ref: 'hunter2' }), 'INVALID_REQUEST');
        await rejectsWith(w.store.putInstance({ ...f.instance, config_revision: 2, api_key: 'sk-live-123' } as never), 'INVALID_REQUEST');
        await rejectsWith(w.store.putBinding({ ...f.binding, policy_revision: 2, credential: 'secret' } as never), 'INVALID_REQUEST');
      }));

    it('[records-reads] reads by key; unknown keys are absent', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'reads' });
        assert.deepEqual(await w.store.getInstance(f.instance.id), f.instance);
        assert.deepEqual(await w.store.getBinding(f.binding.tenant_id, f.binding.capability_id, f.binding.instance_id), f.binding);
        const v = (await w.store.getVersion(f.version.id))!;
        assert.deepEqual(
          { ...v, admitted_at: undefined, supply_chain_qualified: undefined },
          { ...f.version, admitted_at: undefined, supply_chain_qualified: undefined },
        );
        assert.equal(await w.store.getConnectorType('ctype_none'), null);
        assert.equal(await w.store.getVersion('cver_none'), null);
        assert.equal(await w.store.getInstance('cinst_none'), null);
        assert.equal(await w.store.getReplica('crepl_none'), null);
        assert.equal(await w.store.getAdmissionPolicy('quota:none'), null);
        assert.equal(await w.store.getBinding('tenant-a', 'cap:none', f.instance.id), null);
      }));

    it('[records-never-deleted] retired records stay readable', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'retire' });
        await w.store.putBinding({ ...f.binding, enabled: false, policy_revision: 2 });
        await w.store.putInstance({ ...f.instance, status: 'disabled', config_revision: 2 });
        await w.store.setVersionStatus(f.version.id, 'revoked');
        await w.store.setConnectorTypeEnabled(f.typeId, false);
        await w.health(f.replicas[0]!.id, { status: 'offline', leaseMs: w.now() });
        assert.ok(await w.store.getConnectorType(f.typeId));
        assert.equal((await w.store.getVersion(f.version.id))!.status, 'revoked');
        assert.equal((await w.store.getInstance(f.instance.id))!.status, 'disabled');
        assert.equal((await w.store.getBinding('tenant-a', f.binding.capability_id, f.instance.id))!.enabled, false);
        assert.equal((await w.store.getReplica(f.replicas[0]!.id))!.status, 'offline');
      }));
  });
}
