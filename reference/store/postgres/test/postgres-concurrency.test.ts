// Real concurrency: hundreds of operations in flight at once over the data
// pool's separate connections, with the invariants checked afterwards and,
// for capacity, sampled while they run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import type { RouteView } from '../../../../contract/records.ts';
import { RegistryError } from '../../../../contract/registry-error.ts';
import type { RegistryStore } from '../../registry-store.ts';
import { b } from '../../test/behaviour/world.ts';
import { postgresTestDatabases, type TestDatabase } from './test-database.ts';
import { assertReconciled } from './test-invariants.ts';

const databases = postgresTestDatabases();
const HOUR = 3_600_000;

interface Fleet {
  store: RegistryStore;
  db: TestDatabase;
  capabilityId: string;
  replicaIds: string[];
  instanceId: string;
  /** Starts sampling capacity; the fleet's close() stops it if the test did not. */
  watch(): CapacityWatch;
  /** Stops every watch still running, then closes the store: for `finally`, so a failed assertion cannot leave a poller behind. */
  close(): Promise<void>;
}

/** One tenant, one instance with `replicas` replicas, bound through `policy`. */
async function fleet(name: string, replicas: number, capacity: number, policy: Partial<ReturnType<typeof b.policy>> = {}): Promise<Fleet> {
  const { store, db } = await databases.openStore({ dataPoolSize: 32 });
  const capabilityId = `cap:${name}`;
  const typeId = `ctype_${name}`;
  const version = b.version(`cver_${name}`, typeId, [b.capability(capabilityId)]);
  const instanceId = `cinst_${name}`;
  const replicaIds = Array.from({ length: replicas }, (_, i) => `crepl_${name}_${String(i).padStart(3, '0')}`);
  const { results } = await store.applyBatch([
    { op: 'put_admission_policy', record: b.policy(`quota:${name}`, policy) },
    { op: 'put_connector_type', record: b.connectorType(typeId) },
    { op: 'admit_version', record: version },
    { op: 'put_instance', record: b.instance(instanceId, typeId, version.id, 'tenant-a') },
    { op: 'put_binding', record: b.binding('tenant-a', capabilityId, instanceId, { quota_policy_ref: `quota:${name}` }) },
    ...replicaIds.map((id) => ({
      op: 'provision_replica' as const,
      record: b.replica(id, instanceId, version.id, Date.now() + HOUR, { capacity }),
    })),
  ]);
  assert.ok(
    results.every((r) => r.outcome === 'applied'),
    JSON.stringify(results.find((r) => r.outcome !== 'applied')),
  );
  const watches: CapacityWatch[] = [];
  return {
    store,
    db,
    capabilityId,
    replicaIds,
    instanceId,
    watch() {
      const w = watchCapacity(db);
      watches.push(w);
      return w;
    },
    async close() {
      await Promise.allSettled(watches.map((w) => w.stop()));
      await store.close();
    },
  };
}

interface CapacityWatch {
  /** Ends the sampling (at once if already ended) and returns the largest overbooking seen. */
  stop(): Promise<number>;
}

/** Samples, until stopped, the largest overbooking of any replica (≤ 0 when none). */
function watchCapacity(db: TestDatabase): CapacityWatch {
  const client = new pg.Client(db.url);
  let worst = Number.NEGATIVE_INFINITY;
  let running = true;
  const loop = (async () => {
    await client.connect();
    try {
      while (running) {
        const { rows } = await client.query('SELECT max(active_assignments - capacity)::integer AS over FROM connector_replicas');
        worst = Math.max(worst, rows[0].over);
      }
    } finally {
      await client.end();
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return worst;
    },
  };
}

async function outcomes<T>(calls: Array<() => Promise<T>>): Promise<{ ok: T[]; errors: RegistryError[] }> {
  const settled = await Promise.allSettled(calls.map((c) => c()));
  const ok: T[] = [];
  const errors: RegistryError[] = [];
  for (const s of settled) {
    if (s.status === 'fulfilled') ok.push(s.value);
    else if (RegistryError.is(s.reason)) errors.push(s.reason);
    else throw s.reason;
  }
  return { ok, errors };
}

const codes = (errors: RegistryError[]) => errors.map((e) => `${e.code}${e.details?.['scope'] ? `:${String(e.details['scope'])}` : ''}`);

describe('postgres concurrency', () => {
  it('[admission-never-overbooked] 500 concurrent new routes over 100 replicas: all used, even, never over capacity', async () => {
    const f = await fleet('spread', 100, 6, { max_tenant_in_flight: 1000, max_instance_in_flight: 1000, max_binding_in_flight: 1000 });
    try {
      const watch = f.watch();
      const { ok, errors } = await outcomes(
        Array.from(
          { length: 500 },
          (_, i) => () => f.store.resolve('tenant-a', { action_id: `act-spread-${i}`, capability_id: f.capabilityId }),
        ),
      );
      assert.deepEqual(codes(errors), []);
      assert.equal(ok.length, 500);
      const perReplica = new Map(f.replicaIds.map((id) => [id, 0]));
      for (const v of ok) perReplica.set(v.assignment.replica_id, perReplica.get(v.assignment.replica_id)! + 1);
      const counts = [...perReplica.values()];
      assert.equal(perReplica.size, 100, 'a route went to an unknown replica');
      assert.ok(Math.min(...counts) >= 1, 'every replica takes work when capacity allows');
      assert.ok(Math.max(...counts) - Math.min(...counts) <= 3, `spread ${Math.min(...counts)}..${Math.max(...counts)}`);
      for (const id of f.replicaIds) assert.equal((await f.store.getReplica(id))!.active_assignments, perReplica.get(id));
      assert.equal((await f.store.getAdmissionCounter('tenant', 'tenant-a')).active, 500);
      await outcomes(ok.map((v) => () => f.store.settle('tenant-a', v.assignment.action_id, v.assignment, 'completed')));
      assert.ok((await watch.stop()) <= 0, 'a replica was above its capacity');
      assert.equal((await f.store.fleetStatus()).active_assignments, 0);
      for (const kind of ['tenant', 'tenant_retry'] as const) assert.equal((await f.store.getAdmissionCounter(kind, 'tenant-a')).active, 0);
      assert.equal((await f.store.getAdmissionCounter('instance', f.instanceId)).active, 0);
    } finally {
      await f.close();
    }
  });

  // More resolves in flight than replicas: every replica is held at once and
  // resolves wait for one. A waiter must rank again once its turn comes, or
  // the replica it ranked first collects the waiters while the others,
  // freed meanwhile, stand lower ([route-order] (4) by committed counts).
  for (const [replicas, routes] of [
    [6, 48],
    [10, 200],
  ] as const) {
    it(`[route-order] ${routes} concurrent new routes over ${replicas} replicas, four rounds: max − min per replica ≤ 3`, async () => {
      const f = await fleet(`even${replicas}`, replicas, 1000, {
        max_tenant_in_flight: 1000,
        max_instance_in_flight: 1000,
        max_binding_in_flight: 1000,
      });
      try {
        for (let round = 0; round < 4; round++) {
          const { ok, errors } = await outcomes(
            Array.from(
              { length: routes },
              (_, i) => () => f.store.resolve('tenant-a', { action_id: `act-even-${round}-${i}`, capability_id: f.capabilityId }),
            ),
          );
          assert.deepEqual(codes(errors), []);
          const perReplica = new Map(f.replicaIds.map((id) => [id, 0]));
          for (const v of ok) perReplica.set(v.assignment.replica_id, perReplica.get(v.assignment.replica_id)! + 1);
          const counts = [...perReplica.values()];
          assert.ok(Math.max(...counts) - Math.min(...counts) <= 3, `round ${round}: per replica ${counts.join(', ')}`);
          const settled = await outcomes(
            ok.map((v) => () => f.store.settle('tenant-a', v.assignment.action_id, v.assignment, 'completed')),
          );
          assert.deepEqual(codes(settled.errors), []);
        }
      } finally {
        await f.close();
      }
    });
  }

  for (const [replicas, capacity, what] of [
    [1, 1_000_000, 'one replica'],
    [10, 1_000, 'ten replicas, fewer than the resolves in flight'],
  ] as const) {
    it(`[route-contention] 1,000 concurrent new routes on ${what} with room: every one served, counted once`, async () => {
      const room = { max_tenant_in_flight: 1_000_000, max_instance_in_flight: 1_000_000 };
      const f = await fleet(`hot${replicas}`, replicas, capacity, room);
      try {
        const watch = f.watch();
        const { ok, errors } = await outcomes(
          Array.from(
            { length: 1000 },
            (_, i) => () => f.store.resolve('tenant-a', { action_id: `act-hot-${i}`, capability_id: f.capabilityId }),
          ),
        );
        assert.deepEqual(codes(errors), []);
        assert.equal(ok.length, 1000);
        assert.equal(new Set(ok.map((v) => v.assignment.fence_token)).size, 1000);
        let active = 0;
        for (const id of f.replicaIds) active += (await f.store.getReplica(id))!.active_assignments;
        assert.equal(active, 1000);
        assert.equal((await f.store.getAdmissionCounter('tenant', 'tenant-a')).active, 1000);
        assert.equal((await f.store.getAdmissionCounter('instance', f.instanceId)).active, 1000);
        const settled = await outcomes(ok.map((v) => () => f.store.settle('tenant-a', v.assignment.action_id, v.assignment, 'completed')));
        assert.deepEqual(codes(settled.errors), []);
        assert.equal(settled.ok.filter((r) => r.released).length, 1000);
        assert.ok((await watch.stop()) <= 0, 'a replica was above its capacity');
        assert.equal((await f.store.fleetStatus()).active_assignments, 0);
        assert.equal((await f.store.getAdmissionCounter('tenant', 'tenant-a')).active, 0);
        await assertReconciled(f.db.url);
      } finally {
        await f.close();
      }
    });
  }

  it('[admission-never-overbooked] more concurrent routes than capacity: exactly capacity succeed', async () => {
    const f = await fleet('full', 10, 3);
    try {
      const watch = f.watch();
      const { ok, errors } = await outcomes(
        Array.from(
          { length: 80 },
          (_, i) => () => f.store.resolve('tenant-a', { action_id: `act-full-${i}`, capability_id: f.capabilityId }),
        ),
      );
      assert.equal(ok.length, 30);
      assert.deepEqual(new Set(codes(errors)), new Set(['REPLICA_UNAVAILABLE']));
      assert.ok((await watch.stop()) <= 0, 'a replica was above its capacity');
      assert.equal((await f.store.fleetStatus()).active_assignments, 30);
    } finally {
      await f.close();
    }
  });

  it('[pinned-reserved] 64 concurrent resolves of one new action converge on one assignment', async () => {
    const f = await fleet('dup', 4, 10, { max_tenant_in_flight: 100 });
    try {
      const { ok, errors } = await outcomes(
        Array.from({ length: 64 }, () => () => f.store.resolve('tenant-a', { action_id: 'act-dup', capability_id: f.capabilityId })),
      );
      assert.deepEqual(codes(errors), []);
      for (const v of ok) assert.deepEqual(v.assignment, ok[0]!.assignment);
      assert.equal((await f.store.fleetStatus()).active_assignments, 1);
      assert.equal((await f.store.getAdmissionCounter('tenant', 'tenant-a')).active, 1);
    } finally {
      await f.close();
    }
  });

  it('[admission-all-or-nothing] noisy tenant: limit 4, 64 concurrent, exactly 4 admitted; a quiet tenant is unaffected', async () => {
    const f = await fleet('noisy', 8, 100, { max_tenant_in_flight: 4 });
    try {
      await f.store.putInstance(b.instance('cinst_quiet', 'ctype_noisy', 'cver_noisy', 'tenant-q'));
      await f.store.putBinding(b.binding('tenant-q', f.capabilityId, 'cinst_quiet', { quota_policy_ref: 'quota:noisy' }));
      await f.store.provisionReplica(b.replica('crepl_quiet', 'cinst_quiet', 'cver_noisy', Date.now() + HOUR, { capacity: 100 }));
      const quiet = Array.from(
        { length: 4 },
        (_, i) => () => f.store.resolve('tenant-q', { action_id: `act-quiet-${i}`, capability_id: f.capabilityId }),
      );
      const noisy = Array.from(
        { length: 64 },
        (_, i) => () => f.store.resolve('tenant-a', { action_id: `act-noisy-${i}`, capability_id: f.capabilityId }),
      );
      const [n, q] = await Promise.all([outcomes(noisy), outcomes(quiet)]);
      assert.equal(n.ok.length, 4);
      assert.deepEqual(codes(n.errors), Array(60).fill('CAPACITY_EXCEEDED:tenant'));
      assert.equal(q.ok.length, 4);
      assert.equal((await f.store.getAdmissionCounter('tenant', 'tenant-a')).active, 4);
      assert.equal((await f.store.fleetStatus()).active_assignments, 8);
    } finally {
      await f.close();
    }
  });

  it('[pinned-retry-budget] retry storm: budget 8, 64 concurrent retries, exactly 8 admitted', async () => {
    const f = await fleet('storm', 8, 100, { max_tenant_retry_in_flight: 8 });
    try {
      const first: RouteView[] = [];
      for (let i = 0; i < 64; i++)
        first.push(await f.store.resolve('tenant-a', { action_id: `act-storm-${i}`, capability_id: f.capabilityId }));
      for (const v of first) await f.store.settle('tenant-a', v.assignment.action_id, v.assignment, 'outcome_unknown');
      const { ok, errors } = await outcomes(
        first.map((v) => () => f.store.resolve('tenant-a', { action_id: v.assignment.action_id, capability_id: f.capabilityId })),
      );
      assert.equal(ok.length, 8);
      assert.deepEqual(codes(errors), Array(56).fill('CAPACITY_EXCEEDED:tenant_retry'));
      for (const v of ok) assert.deepEqual(v.assignment, first.find((x) => x.assignment.action_id === v.assignment.action_id)!.assignment);
      assert.equal((await f.store.getAdmissionCounter('tenant_retry', 'tenant-a')).active, 8);
      assert.equal((await f.store.fleetStatus()).active_assignments, 8);
    } finally {
      await f.close();
    }
  });

  it('[settle-release-once] concurrent settlements of one assignment release it exactly once', async () => {
    const f = await fleet('once', 1, 10, { max_tenant_in_flight: 10, max_instance_in_flight: 10 });
    try {
      const view = await f.store.resolve('tenant-a', { action_id: 'act-once', capability_id: f.capabilityId });
      const outcomesList = ['completed', 'outcome_unknown', 'cancelled', 'lease_expired'] as const;
      const { ok, errors } = await outcomes(
        Array.from({ length: 32 }, (_, i) => () => f.store.settle('tenant-a', 'act-once', view.assignment, outcomesList[i % 4]!)),
      );
      assert.deepEqual(codes(errors), []);
      assert.equal(ok.filter((r) => r.released).length, 1);
      const released = ok.find((r) => r.released)!;
      for (const r of ok) assert.equal(r.last_settlement, released.last_settlement);
      assert.equal((await f.store.getReplica(f.replicaIds[0]!))!.active_assignments, 0);
      assert.equal((await f.store.getAdmissionCounter('tenant', 'tenant-a')).active, 0);
      assert.equal((await f.store.getAdmissionCounter('instance', f.instanceId)).active, 0);
      const failures = (await f.store.getReplica(f.replicaIds[0]!))!.circuit.consecutive_failures;
      assert.equal(failures, released.last_settlement === 'outcome_unknown' ? 1 : 0);
    } finally {
      await f.close();
    }
  });

  it('[lease-expiry-effect] lease expiry racing routes, retries and settlements leaves counts reconciled', async () => {
    const f = await fleet('expiry', 12, 50, {
      max_tenant_in_flight: 10_000,
      max_instance_in_flight: 10_000,
      max_tenant_retry_in_flight: 10_000,
    });
    try {
      // Half the replicas will see their lease end while the run goes on,
      // late enough that routes land on them first even on a loaded machine.
      const expiring = f.replicaIds.slice(0, 6);
      for (const id of expiring) await f.store.reportHealth(id, b.health(2, Date.now() + 800, { capacity: 50 }));
      const end = Date.now() + 2000;
      let expired = 0;
      const unexpected: string[] = [];
      const worker = async (w: number) => {
        const mine: RouteView[] = [];
        for (let n = 0; Date.now() < end; n++) {
          try {
            const retry = n % 3 === 2 && mine.length > 0;
            const actionId = retry ? mine[n % mine.length]!.assignment.action_id : `act-exp-${w}-${n}`;
            const view = await f.store.resolve('tenant-a', { action_id: actionId, capability_id: f.capabilityId });
            if (!retry) mine.push(view);
            if (n % 2 === 0) await f.store.settle('tenant-a', actionId, view.assignment, 'cancelled');
          } catch (err) {
            if (!RegistryError.is(err) || err.code !== 'REPLICA_UNAVAILABLE') unexpected.push(String(err));
          }
        }
      };
      const maintenance = async () => {
        while (Date.now() < end) {
          expired += (await f.store.expireLeases(2)).expired;
          await new Promise((resolve) => setTimeout(resolve, 15));
        }
        expired += (await f.store.expireLeases(100)).expired;
      };
      await Promise.all([...Array.from({ length: 8 }, (_, w) => worker(w)), maintenance()]);
      assert.deepEqual(unexpected, []);
      assert.equal(expired, expiring.length);
      for (const id of expiring) {
        const r = (await f.store.getReplica(id))!;
        assert.equal(r.status, 'offline');
        assert.equal(r.active_assignments, 0);
      }
      const client = new pg.Client(f.db.url);
      await client.connect();
      let rows;
      try {
        ({ rows } = await client.query(`SELECT count(*)::integer AS n FROM route_assignments WHERE last_settlement = 'lease_expired'`));
      } finally {
        await client.end();
      }
      assert.ok(rows[0].n > 0, 'expiry released no reservation while routes were held');
      await assertReconciled(f.db.url);
    } finally {
      await f.close();
    }
  });
});
