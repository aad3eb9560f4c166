// bench:memory — the in-memory reference at fleet scale: seeds the
// aip-fleet-slo-v1 dataset through the batch operation, then measures catalog
// pages and resolve+settle pairs. Each throughput figure is the median of
// several rounds, next to a baseline measured in the same run: storing and
// dropping one assignment-sized record per pair in a Map, the least any store
// must do.
import { performance } from 'node:perf_hooks';
import { sha256Hex } from '../../contract/digest.ts';
import { scaleDataset } from '../../load/lib/dataset.js';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { fmt, median, percentile } from './stats.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const ROUND_MS = Number(process.env['BENCH_ROUND_MS'] ?? 1000);

const store = new MemoryStore();
const data = scaleDataset({ runId: 'bench', sha256Hex, leaseUntilMs: Date.now() + 24 * 3_600_000 });

// The records are built first, so the seed time is the store's alone.
let started = performance.now();
const batches = [...data.batches(1000)];
const buildSeconds = (performance.now() - started) / 1000;
started = performance.now();
for (const items of batches) {
  const { results } = await store.applyBatch(items);
  const rejected = results.find((r) => r.outcome === 'rejected');
  if (rejected) throw new Error(`seed item rejected: ${JSON.stringify(rejected)}`);
}
const seedSeconds = (performance.now() - started) / 1000;
batches.length = 0; // the store keeps its own copies
console.log(`dataset: ${JSON.stringify(data.counts)}, built in ${fmt(buildSeconds, 2)} s`);
console.log(`seed: ${fmt(seedSeconds, 2)} s through the batch operation (target < 5 s)`);
(globalThis as { gc?: () => void }).gc?.();
console.log(`heap after seed: ${fmt(process.memoryUsage().heapUsed / 2 ** 20)} MiB`);

const tenants = Array.from({ length: data.dimensions.tenants }, (_, k) => ({
  id: data.ids.tenant(k + 1),
  capabilities: data.tenantCapabilities(k + 1),
}));

// Catalog: first pages per tenant, then one full internal walk.
const pageMs: number[] = [];
for (let i = 0; i < 2000; i++) {
  const t = tenants[i % tenants.length]!;
  const t0 = performance.now();
  await store.queryCatalog({ limit: 50 }, { tenant_id: t.id, allow_unbound: false });
  pageMs.push(performance.now() - t0);
}
let cursor: string | undefined;
let walked = 0;
started = performance.now();
do {
  const page = await store.queryCatalog({ limit: 200, ...(cursor ? { cursor } : {}) }, { tenant_id: null, allow_unbound: true });
  walked += page.capabilities.length;
  cursor = page.next_cursor ?? undefined;
} while (cursor);
console.log(
  `catalog page: p50 ${fmt(percentile(pageMs, 50) * 1000)} µs, p99 ${fmt(percentile(pageMs, 99) * 1000)} µs; internal walk of ${walked} in ${fmt(performance.now() - started, 1)} ms`,
);

async function pairsRound(round: number): Promise<number> {
  let n = 0;
  const end = performance.now() + ROUND_MS;
  while (performance.now() < end) {
    for (let j = 0; j < 100; j++, n++) {
      const t = tenants[n % tenants.length]!;
      const view = await store.resolve(t.id, { action_id: `act-${round}-${n}`, capability_id: t.capabilities[n % t.capabilities.length]! });
      await store.settle(t.id, view.assignment.action_id, view.assignment, 'completed');
    }
  }
  return n / (ROUND_MS / 1000);
}

async function baselineRound(template: object): Promise<number> {
  const map = new Map<string, object>();
  let n = 0;
  const end = performance.now() + ROUND_MS;
  while (performance.now() < end) {
    for (let j = 0; j < 100; j++, n++) {
      const key = `act-${n}`;
      map.set(key, { ...template, action_id: key });
      await Promise.resolve();
      map.delete(key);
      await Promise.resolve();
    }
  }
  return n / (ROUND_MS / 1000);
}

const sample = await store.resolve(tenants[0]!.id, { action_id: 'act-sample', capability_id: tenants[0]!.capabilities[0]! });
const pairs: number[] = [];
const baseline: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  pairs.push(await pairsRound(r));
  baseline.push(await baselineRound(sample.assignment));
}
const status = await store.fleetStatus();
if (status.active_assignments !== 1) throw new Error(`expected only the sample route to hold capacity, found ${status.active_assignments}`);
console.log(`baseline (Map set+delete per pair): ${fmt(median(baseline))} pairs/s`);
console.log(`resolve+settle: ${fmt(median(pairs))} pairs/s (median of ${ROUNDS} × ${ROUND_MS} ms; target ≥ 100,000)`);
console.log(`ratio to baseline: ${fmt(median(pairs) / median(baseline), 3)}`);
