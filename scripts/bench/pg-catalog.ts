// bench:pg's parallel-catalog mode: the first catalog page of many tenants
// at once, as aip-fleet-slo-v1's parallel_catalog phase asks for it, each
// tenant holding a thousand bindings. Every round first publishes a catalog
// change, so each tenant's view is built afresh at the new revision (cold);
// the same reads again at that revision find their views built (warm), the
// baseline of the same run: the cold reads' cost over the warm reads' is
// what building a view costs.
import { performance } from 'node:perf_hooks';
import { recordBuilders } from '../../contract/builders.js';
import { sha256Hex } from '../../contract/digest.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { fmt, median, percentile } from './stats.ts';

const TENANTS = Number(process.env['BENCH_CATALOG_TENANTS'] ?? 32);
const PAGE = 50;
const b = recordBuilders(sha256Hex);

interface Reads {
  ms: number[];
  storeCpuMs: number;
}

async function readAll(store: RegistryStore, tenants: readonly string[]): Promise<Reads> {
  const ms: number[] = [];
  const cpu0 = process.cpuUsage();
  await Promise.all(
    tenants.map(async (tenant) => {
      const t0 = performance.now();
      const page = await store.queryCatalog({ limit: PAGE }, { tenant_id: tenant, allow_unbound: false });
      ms.push(performance.now() - t0);
      if (page.capabilities.length === 0) throw new Error(`tenant ${tenant} sees an empty catalog`);
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { ms, storeCpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Prints each round and the medians; `tenants` are ids of the seeded dataset's tenants. */
export async function parallelCatalogRounds(store: RegistryStore, tenants: readonly string[], rounds: number): Promise<void> {
  const reading = tenants.slice(0, TENANTS);
  const cold: Reads[] = [];
  const warm: Reads[] = [];
  for (let round = -1; round < rounds; round++) {
    // A new connector type is a catalog change: the revision moves and every view is built again.
    const { results } = await store.applyBatch([{ op: 'put_connector_type', record: b.connectorType(`ctype_bench_catalog_${round + 1}`) }]);
    if (results[0]?.outcome !== 'applied') throw new Error(`the catalog change was ${JSON.stringify(results[0])}`);
    const c = await readAll(store, reading);
    const w = await readAll(store, reading);
    if (round < 0) continue; // warm-up: connections and definitions cached
    cold.push(c);
    warm.push(w);
    console.log(
      `catalog round ${round + 1}: ${reading.length} first pages at once, cold p99 ${fmt(percentile(c.ms, 99), 1)} ms, ` +
        `warm p99 ${fmt(percentile(w.ms, 99), 1)} ms`,
    );
  }
  const p = (rs: Reads[], q: number) =>
    percentile(
      rs.flatMap((r) => r.ms),
      q,
    );
  const perRead = (rs: Reads[]) => median(rs.map((r) => r.storeCpuMs / reading.length));
  console.log(
    `parallel catalog: ${reading.length} tenants' first pages (${PAGE} a page) at once, ${rounds} rounds; ` +
      `cold (views built at a new revision) p50 ${fmt(p(cold, 50), 1)} ms, p99 ${fmt(p(cold, 99), 1)} ms; ` +
      `warm (views built) p50 ${fmt(p(warm, 50), 1)} ms, p99 ${fmt(p(warm, 99), 1)} ms; ` +
      `cold ÷ warm p99 ${fmt(p(cold, 99) / Math.max(p(warm, 99), 0.001), 1)}; ` +
      `store process CPU per read ${fmt(perRead(cold), 2)} ms cold, ${fmt(perRead(warm), 2)} ms warm (target: aip-fleet-slo-v1's catalog p99 <= 100 ms)`,
  );
}
