// Two things the memory store and this store must share: placement (the same
// inputs route every action to the same replica, tie-break included) and the
// deliberate fault switches that the conformance and property suites must
// catch (each switch must really break its clause on PostgreSQL too).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteView } from '../../../../contract/records.ts';
import type { FaultName } from '../../../domain/faults.ts';
import { sequentialFenceTokens } from '../../../domain/fence-token.ts';
import { ManualClock } from '../../../domain/time.ts';
import { MemoryStore } from '../../memory/memory-store.ts';
import type { RegistryStore } from '../../registry-store.ts';
import { b, HOUR, T0, World } from '../../test/behaviour/world.ts';
import { postgresTestDatabases } from './test-database.ts';

const databases = postgresTestDatabases();

async function withPostgres(faults: FaultName[], body: (w: World) => Promise<void>): Promise<void> {
  const clock = new ManualClock(T0);
  const { store } = await databases.openStore({ clock: clock.now, fenceTokens: sequentialFenceTokens(), faults: new Set(faults) });
  try {
    await body(new World(store, clock));
  } finally {
    await store.close();
  }
}

/** Regions, zones, priorities and loads that exercise every ordering key, then many equal candidates. */
async function placementFleet(w: World): Promise<string[]> {
  const caps = ['cap:place:a', 'cap:place:b'];
  await w.fleet({ name: 'place_p0', capabilities: caps, replicas: 12, capacity: 4, region: 'eu', zone: 'eu-1' });
  await w.fleet({ name: 'place_p0us', capabilities: caps, replicas: 6, capacity: 4, region: 'us', zone: 'us-1' });
  await w.fleet({ name: 'place_p1', capabilities: caps, replicas: 8, capacity: 50, priority: 1 });
  return caps;
}

async function placements(store: RegistryStore, clock: ManualClock): Promise<string[]> {
  const w = new World(store, clock);
  const caps = await placementFleet(w);
  const topologies = [
    undefined,
    { region: 'us' },
    { region: 'eu', zone: 'eu-9' },
    { region: 'ap', allow_cross_region: true },
    { zone: 'us-1' },
  ];
  const out: string[] = [];
  const held: RouteView[] = [];
  for (let i = 0; i < 160; i++) {
    const topology = topologies[i % topologies.length];
    try {
      const v = await w.resolve('tenant-a', `act-place-${i}`, caps[i % 2]!, topology);
      out.push(v.assignment.replica_id);
      held.push(v);
    } catch (err) {
      out.push(`error:${(err as { code?: string }).code}`);
    }
    // Settle some routes so that loads differ and change between actions.
    if (i % 3 === 2) {
      const v = held.shift()!;
      await w.settle(v, i % 2 === 0 ? 'completed' : 'cancelled');
    }
  }
  return out;
}

describe('postgres placement parity with the memory store', () => {
  it('[route-tiebreak] the same inputs place every action on the same replica as the memory store', async () => {
    const memoryClock = new ManualClock(T0);
    const memory = new MemoryStore({ clock: memoryClock.now, fenceTokens: sequentialFenceTokens() });
    const expected = await placements(memory, memoryClock);
    assert.ok(new Set(expected).size > 10, 'the scenario should spread over many replicas');
    await withPostgres([], async (w) => {
      const actual = await placements(w.store, w.clock);
      assert.deepEqual(actual, expected);
    });
  });
});

describe('postgres fault switches break their clause', () => {
  it('settle-skip-fence: an altered assignment settles', () =>
    withPostgres(['settle-skip-fence'], async (w) => {
      const f = await w.fleet({ name: 'skipfence' });
      const v = await w.resolve('tenant-a', 'act-sf', f.capabilityIds[0]!);
      const forged = { ...v.assignment, fence_token: 'route_forged' };
      assert.equal((await w.store.settle('tenant-a', 'act-sf', forged, 'completed')).released, true);
    }));

  it('settle-release-twice: a second settlement releases again', () =>
    withPostgres(['settle-release-twice'], async (w) => {
      const f = await w.fleet({ name: 'twice' });
      const one = await w.resolve('tenant-a', 'act-tw-1', f.capabilityIds[0]!);
      await w.resolve('tenant-a', 'act-tw-2', f.capabilityIds[0]!);
      await w.settle(one);
      assert.equal((await w.settle(one)).released, true);
      assert.equal(await w.active(f.replicas[0]!.id), 0, 'the other route lost its unit');
    }));

  it('reselect-on-retry: a retry moves to a better replica', () =>
    withPostgres(['reselect-on-retry'], async (w) => {
      const f = await w.fleet({ name: 'resel', replicas: 1 });
      const first = await w.resolve('tenant-a', 'act-rs', f.capabilityIds[0]!);
      await w.settle(first);
      for (let i = 0; i < 3; i++) await w.resolve('tenant-a', `act-rs-load-${i}`, f.capabilityIds[0]!);
      await w.store.provisionReplica(b.replica('crepl_resel_idle', f.instance.id, f.version.id, w.now() + HOUR));
      const retry = await w.resolve('tenant-a', 'act-rs', f.capabilityIds[0]!);
      assert.notEqual(retry.assignment.replica_id, first.assignment.replica_id);
    }));

  it('cursor-skip-revision: a stale cursor is accepted', () =>
    withPostgres(['cursor-skip-revision'], async (w) => {
      await w.fleet({ name: 'cursor', capabilities: ['cap:cur:a', 'cap:cur:b'] });
      const page = await w.store.queryCatalog({ limit: 1 }, { tenant_id: 'tenant-a', allow_unbound: false });
      await w.store.putConnectorType(b.connectorType('ctype_cursor_more'));
      const next = await w.store.queryCatalog({ limit: 1, cursor: page.next_cursor! }, { tenant_id: 'tenant-a', allow_unbound: false });
      assert.deepEqual(
        next.capabilities.map((d) => d.capability.id),
        ['cap:cur:b'],
      );
    }));

  it('capacity-outside-lock: concurrent routes overbook a scope', () =>
    withPostgres(['capacity-outside-lock'], async (w) => {
      await w.store.putAdmissionPolicy(b.policy('quota:over', { max_tenant_in_flight: 4 }));
      const f = await w.fleet({ name: 'over', replicas: 8, capacity: 100, quotaPolicyRef: 'quota:over' });
      // Connections opened first, so that the routes below run side by side
      // rather than one per connection as each is set up.
      await Promise.all(Array.from({ length: 64 }, () => w.store.getReplica(f.replicas[0]!.id)));
      const results = await Promise.allSettled(
        Array.from({ length: 64 }, (_, i) => w.resolve('tenant-a', `act-over-${i}`, f.capabilityIds[0]!)),
      );
      const admitted = results.filter((r) => r.status === 'fulfilled').length;
      assert.ok(admitted > 4, `expected overbooking, ${admitted} admitted`);
      assert.ok((await w.counter('tenant', 'tenant-a')) > 4);
    }));

  it('unbounded-lease-expiry: the limit is ignored', () =>
    withPostgres(['unbounded-lease-expiry'], async (w) => {
      await w.fleet({ name: 'unbound', replicas: 5 });
      w.clock.advance(2 * HOUR);
      assert.equal((await w.store.expireLeases(1)).expired, 5);
    }));
});
