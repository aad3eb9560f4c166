// Settlement (spec.md §13).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteAssignment } from '../../../../contract/records.ts';
import { assertUnchangedBy, rejectsWith, snapshot } from './expect.ts';
import { b, withWorld, type StoreFactory } from './world.ts';

/** Every single-field alteration of an assignment a caller could present. */
function alterations(a: RouteAssignment): Array<[string, RouteAssignment]> {
  const out: Array<[string, RouteAssignment]> = [];
  for (const [k, v] of Object.entries(a)) {
    if (typeof v === 'string') {
      const other =
        k === 'assigned_at'
          ? '2001-01-01T00:00:00.000Z'
          : k.endsWith('digest')
            ? b.fakeDigest('other')
            : k === 'peer_principal_kind'
              ? v === 'agent'
                ? 'service'
                : 'agent'
              : `${v}x`;
      out.push([k, { ...a, [k]: other }]);
    } else if (typeof v === 'number') out.push([k, { ...a, [k]: v + 1 }]);
    else if (v === null) out.push([k, { ...a, [k]: 'x' }]);
  }
  out.push(['topology.zone', { ...a, topology: { ...a.topology, zone: 'elsewhere' } }]);
  out.push(['admission.circuit_open_ms', { ...a, admission: { ...a.admission, circuit_open_ms: a.admission.circuit_open_ms + 1 } }]);
  out.push([
    'admission.base_scopes[0].limit',
    {
      ...a,
      admission: { ...a.admission, base_scopes: a.admission.base_scopes.map((s, i) => (i === 0 ? { ...s, limit: s.limit + 1 } : s)) },
    },
  ]);
  return out;
}

export function settlementBehaviour(factory: StoreFactory): void {
  describe('settlement', () => {
    it('[settle-outcomes] the four outcomes settle; others are invalid', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'out', capacity: 10 });
        for (const outcome of ['completed', 'outcome_unknown', 'cancelled', 'lease_expired'] as const) {
          const v = await w.resolve('tenant-a', `act-out-${outcome}`, f.capabilityIds[0]!);
          const r = await w.settle(v, outcome);
          assert.deepEqual(r, { action_id: `act-out-${outcome}`, released: true, last_settlement: outcome });
        }
        const v = await w.resolve('tenant-a', 'act-out-bad', f.capabilityIds[0]!);
        await assertUnchangedBy(
          w,
          [f],
          () => w.store.settle('tenant-a', 'act-out-bad', v.assignment, 'succeeded' as never),
          'INVALID_REQUEST',
          [{ tenant: 'tenant-a', action: 'act-out-bad' }],
        );
      }));

    it('[settle-fence] any altered field is FENCE_LOST and changes nothing', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:fence', { max_tenant_in_flight: 9 }));
        const f = await w.fleet({ name: 'fence', quotaPolicyRef: 'quota:fence' });
        const v = await w.resolve('tenant-a', 'act-fence', f.capabilityIds[0]!);
        const actions = [{ tenant: 'tenant-a', action: 'act-fence' }];
        const cases = alterations(v.assignment).filter(([k]) => k !== 'action_id' && k !== 'tenant_id');
        assert.ok(cases.length >= 20, `only ${cases.length} alterations`);
        for (const [field, altered] of cases) {
          const before = JSON.stringify(await w.store.route('tenant-a', 'act-fence'));
          await rejectsWith(w.store.settle('tenant-a', 'act-fence', altered, 'completed'), 'FENCE_LOST');
          assert.equal(JSON.stringify(await w.store.route('tenant-a', 'act-fence')), before, field);
        }
        await assertUnchangedBy(
          w,
          [f],
          () => w.store.settle('tenant-a', 'act-fence', { ...v.assignment, fence_token: 'route_forged' }, 'completed'),
          'FENCE_LOST',
          actions,
        );
        await rejectsWith(w.store.settle('tenant-a', 'act-fence', { ...v.assignment, action_id: 'act-other' }, 'completed'), 'FENCE_LOST');
      }));

    it('[settle-release-once] releases exactly the attempt scopes and one replica unit', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(
          b.policy('quota:rel', { max_tenant_in_flight: 9, max_instance_in_flight: 9, max_tenant_retry_in_flight: 9 }),
        );
        const f = await w.fleet({ name: 'rel', quotaPolicyRef: 'quota:rel', capacity: 5 });
        const cap = f.capabilityIds[0]!;
        const keep = await w.resolve('tenant-a', 'act-rel-keep', cap);
        const v = await w.resolve('tenant-a', 'act-rel', cap);
        assert.equal(await w.counter('tenant', 'tenant-a'), 2);
        await w.settle(v, 'cancelled');
        assert.equal(await w.counter('tenant', 'tenant-a'), 1);
        assert.equal(await w.counter('instance', f.instance.id), 1);
        assert.equal(await w.active(keep.assignment.replica_id), 1);
        const view = (await w.store.route('tenant-a', 'act-rel'))!;
        assert.equal(view.reserved, false);
        assert.equal(view.last_settlement, 'cancelled');
      }));

    it('[settle-idempotent] settling an unreserved route has no effect, whatever the outcome', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:idem', { max_tenant_in_flight: 9, circuit_failure_threshold: 1 }));
        const f = await w.fleet({ name: 'idem', quotaPolicyRef: 'quota:idem', capacity: 5 });
        const other = await w.resolve('tenant-a', 'act-idem-other', f.capabilityIds[0]!);
        const v = await w.resolve('tenant-a', 'act-idem', f.capabilityIds[0]!);
        await w.settle(v, 'completed');
        const actions = [{ tenant: 'tenant-a', action: 'act-idem' }];
        for (const outcome of ['completed', 'outcome_unknown', 'cancelled', 'lease_expired'] as const) {
          const before = await snapshot(w, [f], actions);
          const r = await w.settle(v, outcome);
          assert.deepEqual(r, { action_id: 'act-idem', released: false, last_settlement: 'completed' });
          assert.deepEqual(await snapshot(w, [f], actions), before, `replayed ${outcome} changed state`);
        }
        assert.equal(await w.active(other.assignment.replica_id), 1);
        assert.equal((await w.store.getReplica(other.assignment.replica_id))!.circuit.state, 'closed');
      }));

    it('[settle-retains] the assignment stays readable and pinned after settlement', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'ret' });
        const v = await w.resolve('tenant-a', 'act-ret', f.capabilityIds[0]!);
        await w.settle(v);
        const view = (await w.store.route('tenant-a', 'act-ret'))!;
        assert.deepEqual(view.assignment, v.assignment);
      }));

    it('[settle-unknown-action] unknown actions and other tenants are not found', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'unk' });
        const v = await w.resolve('tenant-a', 'act-unk', f.capabilityIds[0]!);
        await rejectsWith(w.store.settle('tenant-a', 'act-never', { ...v.assignment, action_id: 'act-never' }, 'completed'), 'NOT_FOUND');
        await assertUnchangedBy(w, [f], () => w.store.settle('tenant-b', 'act-unk', v.assignment, 'completed'), 'NOT_FOUND', [
          { tenant: 'tenant-a', action: 'act-unk' },
        ]);
        assert.equal(await w.store.route('tenant-b', 'act-unk'), null, 'another tenant cannot read the route');
      }));

    it('[assignment-read] a route read returns the assignment, its reservation and last outcome', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'read' });
        assert.equal(await w.store.route('tenant-a', 'act-read'), null);
        const v = await w.resolve('tenant-a', 'act-read', f.capabilityIds[0]!);
        assert.deepEqual(await w.store.route('tenant-a', 'act-read'), { assignment: v.assignment, reserved: true, last_settlement: null });
        await w.settle(v, 'outcome_unknown');
        assert.deepEqual(await w.store.route('tenant-a', 'act-read'), {
          assignment: v.assignment,
          reserved: false,
          last_settlement: 'outcome_unknown',
        });
      }));
  });
}
