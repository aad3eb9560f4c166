// bench:pg's hot-replica mode: bursts of concurrent resolves, every one for
// the same tenant and capability with one eligible replica that has room for
// all of them, as a flash crowd on one connector would send. Each burst is
// answered in full, then settled; the figures are routes per second of the
// burst (served ÷ wall time from the first request to the last answer), the
// refusals by code, and the route latency. A correct store serves every one:
// contention on a replica with room is not a refusal.
import { performance } from 'node:perf_hooks';
import { recordBuilders } from '../../contract/builders.js';
import { sha256Hex } from '../../contract/digest.ts';
import type { RouteView } from '../../contract/records.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { fmt, median, percentile } from './stats.ts';

const BURST = Number(process.env['BENCH_HOT_ROUTES'] ?? 1000);
const ROOM = 1_000_000;
const b = recordBuilders(sha256Hex);
const ids = { tenant: 'tenant-hot', capability: 'cap:hot:1', type: 'ctype_hot', version: 'cver_hot', instance: 'cinst_hot' };

/** One tenant, capability and replica (capacity 1,000,000), its scopes limited far above any burst. */
async function seedHotFleet(store: RegistryStore, leaseUntilMs: number): Promise<void> {
  const version = b.version(ids.version, ids.type, [b.capability(ids.capability)]);
  const limits = { max_tenant_in_flight: ROOM, max_instance_in_flight: ROOM, max_binding_in_flight: ROOM };
  const { results } = await store.applyBatch([
    { op: 'put_admission_policy', record: b.policy('quota:hot', limits) },
    { op: 'put_connector_type', record: b.connectorType(ids.type) },
    { op: 'admit_version', record: version },
    { op: 'put_instance', record: b.instance(ids.instance, ids.type, ids.version, ids.tenant) },
    { op: 'put_binding', record: b.binding(ids.tenant, ids.capability, ids.instance, { quota_policy_ref: 'quota:hot' }) },
    { op: 'provision_replica', record: b.replica('crepl_hot', ids.instance, ids.version, leaseUntilMs, { capacity: ROOM }) },
  ]);
  const rejected = results.find((r) => r.outcome === 'rejected');
  if (rejected) throw new Error(`hot fleet item rejected: ${JSON.stringify(rejected)}`);
}

interface Burst {
  rate: number;
  refusals: Map<string, number>;
  routeMs: number[];
}

async function burst(store: RegistryStore, round: number): Promise<Burst> {
  const routeMs: number[] = [];
  const started = performance.now();
  const answers = await Promise.allSettled(
    Array.from({ length: BURST }, async (_, i) => {
      const t0 = performance.now();
      const view = await store.resolve(ids.tenant, { action_id: `act-hot-${round}-${i}`, capability_id: ids.capability });
      routeMs.push(performance.now() - t0);
      return view;
    }),
  );
  const wallMs = performance.now() - started;
  const served = answers.filter((a): a is PromiseFulfilledResult<RouteView> => a.status === 'fulfilled').map((a) => a.value);
  const refusals = new Map<string, number>();
  for (const a of answers) {
    if (a.status === 'fulfilled') continue;
    const code = String((a.reason as { code?: unknown }).code ?? a.reason);
    refusals.set(code, (refusals.get(code) ?? 0) + 1);
  }
  await Promise.all(served.map((v) => store.settle(ids.tenant, v.assignment.action_id, v.assignment, 'completed')));
  return { rate: (served.length * 1000) / wallMs, refusals, routeMs };
}

/** Prints each burst and the medians; returns nothing, throws nothing for refusals (they are the figure). */
export async function hotReplicaRounds(store: RegistryStore, rounds: number, leaseUntilMs: number): Promise<void> {
  await seedHotFleet(store, leaseUntilMs);
  await burst(store, -1); // warm-up: every connection of the pool open
  const bursts: Burst[] = [];
  for (let round = 0; round < rounds; round++) {
    const r = await burst(store, round);
    bursts.push(r);
    const refused = [...r.refusals].map(([code, n]) => `${n} ${code}`).join(', ') || 'none refused';
    console.log(`hot round ${round + 1}: ${fmt(r.rate)} routes/s, ${refused}`);
  }
  const all = bursts.flatMap((r) => r.routeMs);
  const refused = bursts.reduce((n, r) => n + [...r.refusals.values()].reduce((a, c) => a + c, 0), 0);
  console.log(
    `hot replica: ${fmt(median(bursts.map((r) => r.rate)))} routes/s (median of ${rounds} bursts of ${BURST} concurrent resolves for ` +
      `one tenant, capability and replica), ${refused} refused, route p50 ${fmt(percentile(all, 50))} ms, p99 ${fmt(percentile(all, 99))} ms ` +
      `(target >= 1,000 routes/s, 0 refused)`,
  );
}
