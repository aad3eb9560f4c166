// New routes and the assignment (spec.md §9–§10).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rejectsWith, snapshot } from './expect.ts';
import { b, HOUR, withWorld, type StoreFactory } from './world.ts';

export function routingBehaviour(factory: StoreFactory): void {
  describe('new routes', () => {
    it('[route-binding-unavailable] no enabled valid binding, never another tenant', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'bu', tenantId: 'tenant-a' });
        const cap = f.capabilityIds[0]!;
        await rejectsWith(w.resolve('tenant-b', 'act-bu-1', cap), 'BINDING_UNAVAILABLE', { tenant_id: 'tenant-b', capability_id: cap });
        await rejectsWith(w.resolve('tenant-a', 'act-bu-2', 'cap:unknown'), 'BINDING_UNAVAILABLE');
        await w.store.setVersionStatus(f.version.id, 'admitted');
        await rejectsWith(w.resolve('tenant-a', 'act-bu-3', cap), 'BINDING_UNAVAILABLE');
      }));

    it('[route-eligibility] only ready, leased, unfull, closed, current-version replicas take new work', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'elig', replicas: 5, capacity: 1 });
        const [draining, offline, expired, full, good] = f.replicas.map((r) => r.id);
        await w.health(draining!, { status: 'draining' });
        await w.health(offline!, { status: 'offline' });
        await w.health(expired!, { leaseMs: w.now() });
        const first = await w.resolve('tenant-a', 'act-elig-0', f.capabilityIds[0]!);
        const takenFirst = first.assignment.replica_id;
        assert.ok([full, good].includes(takenFirst));
        const second = await w.resolve('tenant-a', 'act-elig-1', f.capabilityIds[0]!);
        assert.notEqual(second.assignment.replica_id, takenFirst);
        assert.ok([full, good].includes(second.assignment.replica_id));
        await rejectsWith(w.resolve('tenant-a', 'act-elig-2', f.capabilityIds[0]!), 'REPLICA_UNAVAILABLE', { instance_id: f.instance.id });
      }));

    it('[route-eligibility] capacity class filters, region filters only when cross-region is forbidden', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'topo', replicas: 0 });
        const add = (id: string, region: string, zone: string, capacity_class: string) =>
          w.store.provisionReplica(
            b.replica(id, f.instance.id, f.version.id, w.now() + HOUR, { topology: { region, zone, capacity_class } }),
          );
        await add('crepl_topo_eu', 'eu', 'eu-1', 'standard');
        await add('crepl_topo_us', 'us', 'us-1', 'large');
        const cap = f.capabilityIds[0]!;
        assert.equal((await w.resolve('tenant-a', 'act-topo-1', cap, { capacity_class: 'large' })).assignment.replica_id, 'crepl_topo_us');
        await rejectsWith(w.resolve('tenant-a', 'act-topo-2', cap, { capacity_class: 'gpu' }), 'REPLICA_UNAVAILABLE');
        assert.equal(
          (await w.resolve('tenant-a', 'act-topo-3', cap, { region: 'ap' })).reserved,
          true,
          'cross-region is allowed by default',
        );
        await rejectsWith(w.resolve('tenant-a', 'act-topo-4', cap, { region: 'ap', allow_cross_region: false }), 'REPLICA_UNAVAILABLE');
        const resident = await w.resolve('tenant-a', 'act-topo-5', cap, {
          region: 'eu',
          allow_cross_region: false,
          capacity_class: 'standard',
        });
        assert.equal(resident.assignment.replica_id, 'crepl_topo_eu');
      }));

    it('[route-replica-unavailable] names the first eligible binding in priority order', () =>
      withWorld(factory, async (w) => {
        const first = await w.fleet({ name: 'ru_a', priority: 1 });
        const cap = first.capabilityIds[0]!;
        await w.store.putConnectorType(b.connectorType('ctype_ru_b'));
        await w.store.admitVersion(b.version('cver_ru_b', 'ctype_ru_b', first.version.manifest.capabilities));
        await w.store.putInstance(b.instance('cinst_ru_b', 'ctype_ru_b', 'cver_ru_b', 'tenant-a'));
        await w.store.putBinding(b.binding('tenant-a', cap, 'cinst_ru_b', { priority: 0 }));
        await w.health(first.replicas[0]!.id, { status: 'offline' });
        await rejectsWith(w.resolve('tenant-a', 'act-ru', cap), 'REPLICA_UNAVAILABLE', { instance_id: 'cinst_ru_b' });
      }));

    it('[route-order] priority, then region, then zone, then load', () =>
      withWorld(factory, async (w) => {
        const low = await w.fleet({ name: 'ord_low', priority: 5, region: 'eu', zone: 'eu-1' });
        const cap = low.capabilityIds[0]!;
        await w.store.putConnectorType(b.connectorType('ctype_ord_high'));
        await w.store.admitVersion(b.version('cver_ord_high', 'ctype_ord_high', low.version.manifest.capabilities));
        await w.store.putInstance(b.instance('cinst_ord_high', 'ctype_ord_high', 'cver_ord_high', 'tenant-a'));
        await w.store.putBinding(b.binding('tenant-a', cap, 'cinst_ord_high', { priority: 1 }));
        const put = (id: string, region: string, zone: string) =>
          w.store.provisionReplica(
            b.replica(id, 'cinst_ord_high', 'cver_ord_high', w.now() + HOUR, {
              capacity: 100,
              topology: { region, zone, capacity_class: 'standard' },
            }),
          );
        await put('crepl_ord_us', 'us', 'us-1');
        const pick = async (n: number, pref?: Record<string, unknown>) =>
          (await w.resolve('tenant-a', `act-ord-${n}`, cap, pref)).assignment.replica_id;
        assert.equal(await pick(1, { region: 'eu', zone: 'eu-1' }), 'crepl_ord_us', 'priority beats a region match');
        await put('crepl_ord_eu2', 'eu', 'eu-2');
        assert.equal(await pick(2, { region: 'eu', zone: 'eu-1' }), 'crepl_ord_eu2', 'region beats load');
        await put('crepl_ord_eu1', 'eu', 'eu-1');
        assert.equal(await pick(3, { region: 'eu', zone: 'eu-1' }), 'crepl_ord_eu1', 'zone beats load');
        assert.equal(await pick(4, { region: 'eu', zone: 'eu-1' }), 'crepl_ord_eu1', 'zone still beats load 1:1');
        assert.equal(await pick(5, { region: 'eu' }), 'crepl_ord_eu2', 'least loaded within the region');
        const counts = await Promise.all(['crepl_ord_us', 'crepl_ord_eu2', 'crepl_ord_eu1'].map((id) => w.active(id)));
        assert.deepEqual(counts, [1, 2, 2]);
      }));

    it('[route-order] fewer active assignments first spreads load evenly', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'spread', replicas: 10, capacity: 100 });
        for (let i = 0; i < 95; i++) await w.resolve('tenant-a', `act-spread-${i}`, f.capabilityIds[0]!);
        const counts = await Promise.all(f.replicas.map((r) => w.active(r.id)));
        assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `uneven spread ${counts.join(',')}`);
      }));

    it('[route-tiebreak] equal candidates are ordered by a deterministic function of replica and action', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'tb', replicas: 8, capacity: 1000 });
        const picks = new Set<string>();
        for (let i = 0; i < 40; i++) {
          const v = await w.resolve('tenant-a', `act-tb-${i}`, f.capabilityIds[0]!);
          picks.add(v.assignment.replica_id);
          await w.settle(v);
        }
        assert.ok(picks.size >= 4, `the tie-break should spread idle picks, saw ${picks.size} replicas`);
      }));

    it('[route-admission-policy] a disabled policy refuses new routes', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:off', { enabled: false }));
        const f = await w.fleet({ name: 'poloff', quotaPolicyRef: 'quota:off' });
        await rejectsWith(w.resolve('tenant-a', 'act-poloff', f.capabilityIds[0]!), 'ADMISSION_REJECTED');
      }));

    it('[route-atomic] a new route reserves, counts and stores together', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:atomic', { max_tenant_in_flight: 10, max_instance_in_flight: 10 }));
        const f = await w.fleet({ name: 'atomic', quotaPolicyRef: 'quota:atomic' });
        const v = await w.resolve('tenant-a', 'act-atomic', f.capabilityIds[0]!);
        assert.equal(v.reserved, true);
        assert.equal(await w.active(v.assignment.replica_id), 1);
        assert.equal(await w.counter('tenant', 'tenant-a'), 1);
        assert.equal(await w.counter('instance', f.instance.id), 1);
        assert.deepEqual((await w.store.route('tenant-a', 'act-atomic'))!.assignment, v.assignment);
      }));

    it('[route-atomic] a refused new route leaves nothing behind', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:one', { max_instance_in_flight: 1 }));
        const f = await w.fleet({ name: 'refused', quotaPolicyRef: 'quota:one', capacity: 5 });
        await w.resolve('tenant-a', 'act-refused-1', f.capabilityIds[0]!);
        const before = await snapshot(w, [f]);
        await rejectsWith(w.resolve('tenant-a', 'act-refused-2', f.capabilityIds[0]!), 'CAPACITY_EXCEEDED');
        assert.deepEqual(await snapshot(w, [f]), before);
        assert.equal(await w.store.route('tenant-a', 'act-refused-2'), null);
      }));

    it('[assignment-fields] every field comes from its source', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'fields', region: 'eu', zone: 'eu-2' });
        const rev = await w.store.catalogRevision();
        const a = (await w.resolve('tenant-a', 'act-fields', f.capabilityIds[0]!)).assignment;
        const r = f.replicas[0]!;
        assert.deepEqual(
          { ...a, fence_token: undefined, admission: undefined },
          {
            action_id: 'act-fields',
            capability_id: f.capabilityIds[0],
            tenant_id: 'tenant-a',
            instance_id: f.instance.id,
            version_id: f.version.id,
            manifest_digest: f.version.manifest_digest,
            replica_id: r.id,
            endpoint: r.endpoint,
            peer_principal_id: r.peer_principal_id,
            peer_principal_kind: r.peer_principal_kind,
            peer_did: r.peer_did,
            trust_domain: r.trust_domain,
            transport_profile: r.transport_profile,
            topology: r.topology,
            catalog_revision: rev,
            binding_policy_revision: f.binding.policy_revision,
            credential_revision_ref: f.binding.credential_revision_ref,
            quota_policy_ref: null,
            replica_health_revision: r.health_revision,
            assigned_at: new Date(w.now()).toISOString(),
            fence_token: undefined,
            admission: undefined,
          },
        );
      }));

    it('[assignment-fence-token] fence tokens are unique per assignment', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'fence', capacity: 100 });
        const tokens = new Set<string>();
        for (let i = 0; i < 30; i++)
          tokens.add((await w.resolve('tenant-a', `act-fence-${i}`, f.capabilityIds[0]!)).assignment.fence_token);
        assert.equal(tokens.size, 30);
      }));

    it('[route-topology-new-only] topology preferences never move an existing route', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'tno', replicas: 0 });
        await w.store.provisionReplica(
          b.replica('crepl_tno_eu', f.instance.id, f.version.id, w.now() + HOUR, {
            topology: { region: 'eu', zone: 'a', capacity_class: 'standard' },
          }),
        );
        await w.store.provisionReplica(
          b.replica('crepl_tno_us', f.instance.id, f.version.id, w.now() + HOUR, {
            topology: { region: 'us', zone: 'a', capacity_class: 'standard' },
          }),
        );
        const first = await w.resolve('tenant-a', 'act-tno', f.capabilityIds[0]!, { region: 'eu' });
        assert.equal(first.assignment.replica_id, 'crepl_tno_eu');
        const again = await w.resolve('tenant-a', 'act-tno', f.capabilityIds[0]!, { region: 'us', allow_cross_region: false });
        assert.deepEqual(again.assignment, first.assignment);
      }));
  });
}
