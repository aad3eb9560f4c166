// The store defects break their clause on PostgreSQL too: each, built
// around a PostgreSQL store, does what it says, so that a suite that passes
// it there has missed a broken registry, not a harmless one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assembledStore } from '../../assembly.ts';
import { sequentialFenceTokens } from '../../domain/fence-token.ts';
import { ManualClock } from '../../domain/time.ts';
import { postgresTestDatabases } from '../../store/postgres/test/test-database.ts';
import { b, HOUR, T0, World } from '../../store/test/behaviour/world.ts';
import { defectNamed } from '../catalogue.ts';

const databases = postgresTestDatabases();

async function withDefect(name: string, body: (w: World) => Promise<void>): Promise<void> {
  const assembly = (await defectNamed(name)).assemble();
  const clock = new ManualClock(T0);
  const { store } = await databases.openStore({
    clock: clock.now,
    fenceTokens: sequentialFenceTokens(),
    ...(assembly.raceHooks ? { raceHooks: assembly.raceHooks } : {}),
  });
  try {
    await body(new World(assembledStore(assembly, store), clock));
  } finally {
    await store.close();
  }
}

describe('store defects on PostgreSQL', () => {
  it('settle-skip-fence: an altered assignment settles', () =>
    withDefect('settle-skip-fence', async (w) => {
      const f = await w.fleet({ name: 'skipfence' });
      const v = await w.resolve('tenant-a', 'act-sf', f.capabilityIds[0]!);
      const forged = { ...v.assignment, fence_token: 'route_forged' };
      assert.equal((await w.store.settle('tenant-a', 'act-sf', forged, 'completed')).released, true);
    }));

  it('settle-release-twice: a second settlement releases again', () =>
    withDefect('settle-release-twice', async (w) => {
      const f = await w.fleet({ name: 'twice' });
      const one = await w.resolve('tenant-a', 'act-tw-1', f.capabilityIds[0]!);
      await w.resolve('tenant-a', 'act-tw-2', f.capabilityIds[0]!);
      await w.settle(one);
      await w.settle(one);
      assert.equal(await w.active(f.replicas[0]!.id), 0, 'the other route lost its unit');
    }));

  it('reselect-on-retry: a retry moves to a better replica', () =>
    withDefect('reselect-on-retry', async (w) => {
      const f = await w.fleet({ name: 'resel', replicas: 1 });
      const first = await w.resolve('tenant-a', 'act-rs', f.capabilityIds[0]!);
      await w.settle(first);
      for (let i = 0; i < 3; i++) await w.resolve('tenant-a', `act-rs-load-${i}`, f.capabilityIds[0]!);
      await w.store.provisionReplica(b.replica('crepl_resel_idle', f.instance.id, f.version.id, w.now() + HOUR));
      const retry = await w.resolve('tenant-a', 'act-rs', f.capabilityIds[0]!);
      assert.notEqual(retry.assignment.replica_id, first.assignment.replica_id);
    }));

  it('cursor-skip-revision: a stale cursor is accepted', () =>
    withDefect('cursor-skip-revision', async (w) => {
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
    withDefect('capacity-outside-lock', async (w) => {
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
    withDefect('unbounded-lease-expiry', async (w) => {
      await w.fleet({ name: 'unbound', replicas: 5 });
      w.clock.advance(2 * HOUR);
      assert.equal((await w.store.expireLeases(1)).expired, 5);
    }));
});
