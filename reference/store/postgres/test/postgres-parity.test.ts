// Placement the memory store and this store must share: the same inputs
// route every action to the same replica, tie-break included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteView } from '../../../../contract/records.ts';
import { sequentialFenceTokens } from '../../../domain/fence-token.ts';
import { ManualClock } from '../../../domain/time.ts';
import { MemoryStore } from '../../memory/memory-store.ts';
import type { RegistryStore } from '../../registry-store.ts';
import { T0, World } from '../../test/behaviour/world.ts';
import { postgresTestDatabases } from './test-database.ts';

const databases = postgresTestDatabases();

async function withPostgres(body: (w: World) => Promise<void>): Promise<void> {
  const clock = new ManualClock(T0);
  const { store } = await databases.openStore({ clock: clock.now, fenceTokens: sequentialFenceTokens() });
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
    await withPostgres(async (w) => {
      const actual = await placements(w.store, w.clock);
      assert.deepEqual(actual, expected);
    });
  });
});
