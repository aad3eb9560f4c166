// bench:pg — the PostgreSQL store on one embedded server (durable settings,
// as `fleetproof serve --store postgres` runs it): seed time of the
// aip-fleet-slo-v1 dataset through the batch operation, resolve+settle pairs
// per second at 8 concurrent clients with the route latency, and pgbench's
// simple-update transactions per second at the same client count against the
// same server, as the yardstick: `ratio` is pairs/s ÷ pgbench tps. Pair and
// pgbench rounds alternate so that both see the same machine; the figures
// are medians over the rounds.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import pg from 'pg';
import { scaleDataset } from '../../load/lib/dataset.js';
import { openPostgresStore, startEmbeddedPostgres } from '../../reference/store/postgres/index.ts';
import { databaseUrl } from '../../reference/store/postgres/database.ts';
import { fmt, median, percentile } from './stats.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const PAIR_ROUND_MS = Number(process.env['BENCH_ROUND_MS'] ?? 5000);
const PGBENCH_SECONDS = Number(process.env['BENCH_PGBENCH_SECONDS'] ?? 10);
const CLIENTS = 8;
const run = promisify(execFile);
const sha256Hex = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');

const server = await startEmbeddedPostgres();
try {
  const admin = new pg.Client(server.url);
  await admin.connect();
  await admin.query('CREATE DATABASE registry');
  await admin.query('CREATE DATABASE pgbench');
  await admin.end();
  const store = await openPostgresStore({ url: databaseUrl(server.url, 'registry') });
  const data = scaleDataset({ runId: 'bench', sha256Hex, leaseUntilMs: Date.now() + 24 * 3_600_000 });

  let started = performance.now();
  for (const items of data.batches(1000)) {
    const { results } = await store.applyBatch(items);
    const rejected = results.find((r) => r.outcome === 'rejected');
    if (rejected) throw new Error(`seed item rejected: ${JSON.stringify(rejected)}`);
  }
  console.log(`dataset: ${JSON.stringify(data.counts)}`);
  console.log(`seed: ${fmt((performance.now() - started) / 1000, 1)} s (target < 30 s)`);

  const tenants = Array.from({ length: data.dimensions.tenants }, (_, k) => ({ id: data.ids.tenant(k + 1), capabilities: data.tenantCapabilities(k + 1) }));
  const routeMs: number[] = [];

  async function pairsRound(round: number): Promise<number> {
    let pairs = 0;
    const end = performance.now() + PAIR_ROUND_MS;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let n = 0; performance.now() < end; n++) {
          const t = tenants[(n * CLIENTS + c) % tenants.length]!;
          const capability = t.capabilities[n % t.capabilities.length]!;
          const t0 = performance.now();
          const view = await store.resolve(t.id, { action_id: `act-${round}-${c}-${n}`, capability_id: capability });
          routeMs.push(performance.now() - t0);
          await store.settle(t.id, view.assignment.action_id, view.assignment, 'completed');
          pairs++;
        }
      }),
    );
    return pairs / (PAIR_ROUND_MS / 1000);
  }

  const pgbenchEnv = { ...process.env, PGPASSWORD: new URL(server.url).password };
  const pgbenchArgs = ['-h', '127.0.0.1', '-p', String(server.port), '-U', 'postgres'];
  let pgbenchMissing = false;
  try {
    await run('pgbench', [...pgbenchArgs, '-i', '-q', 'pgbench'], { env: pgbenchEnv });
  } catch (err) {
    pgbenchMissing = true;
    console.log(`pgbench: not available (${(err as Error).message.split('\n')[0]}); install the PostgreSQL client tools for the ratio`);
  }
  async function pgbenchRound(): Promise<number> {
    const { stdout } = await run('pgbench', [...pgbenchArgs, '-N', '-c', String(CLIENTS), '-j', '2', '-T', String(PGBENCH_SECONDS), 'pgbench'], { env: pgbenchEnv });
    const tps = /tps = ([0-9.]+)/.exec(stdout);
    if (!tps) throw new Error(`unexpected pgbench output: ${stdout}`);
    return Number(tps[1]);
  }

  await pairsRound(-1); // warm-up: connections, prepared statements, caches
  routeMs.length = 0;
  const pairRates: number[] = [];
  const tpsRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    pairRates.push(await pairsRound(round));
    if (!pgbenchMissing) tpsRates.push(await pgbenchRound());
    console.log(`round ${round + 1}: ${fmt(pairRates[round]!)} pairs/s${pgbenchMissing ? '' : `, pgbench ${fmt(tpsRates[round]!)} tps`}`);
  }
  const pairs = median(pairRates);
  console.log(`pairs: ${fmt(pairs)} resolve+settle pairs/s at ${CLIENTS} clients (median of ${ROUNDS})`);
  console.log(`route: p50 ${fmt(percentile(routeMs, 50), 2)} ms, p99 ${fmt(percentile(routeMs, 99), 2)} ms (target p99 < 20 ms)`);
  const status = await store.fleetStatus();
  if (status.active_assignments !== 0) throw new Error(`${status.active_assignments} assignments still active after settling every pair`);
  if (!pgbenchMissing) {
    const tps = median(tpsRates);
    console.log(`pgbench: ${fmt(tps)} tps simple-update at ${CLIENTS} clients, 2 threads (median of ${ROUNDS})`);
    console.log(`ratio: ${fmt(pairs / tps, 2)} (target >= 0.5)`);
  }
  await store.close();
} finally {
  await server.stop();
}
