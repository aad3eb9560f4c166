// bench:pg — the PostgreSQL store on one embedded server (durable settings,
// as `fleetproof serve --store postgres` runs it): seed time of the
// aip-fleet-slo-v1 dataset through the batch operation, resolve+settle pairs
// per second at 8 concurrent clients with the route latency, and pgbench's
// simple-update transactions per second at the same client count against the
// same server, as the yardstick: `ratio` is pairs/s ÷ pgbench tps. Pair and
// pgbench rounds alternate so that both see the same machine; the figures
// are medians over the rounds.
//
// On Linux it also reports the CPU time each side spends (from /proc): the
// server's per pair and per pgbench transaction, the store process's per pair
// and pgbench's own per transaction. On a machine whose CPUs are the limit
// (both sides share them) the ratio follows those costs, and they swing far
// less with a neighbour's load than throughput does.
// Then the parallel-catalog mode (pg-catalog.ts): many tenants' first
// catalog pages at once, each view built at a new revision, against the same
// reads with the views built. Then the hot-replica mode (pg-hot.ts): bursts
// of concurrent resolves for one tenant, capability and replica with room,
// served in full, in routes/s.
// Knobs: BENCH_ROUNDS (3), BENCH_ROUND_MS (5000), BENCH_PGBENCH_SECONDS (10),
// BENCH_HOT_ROUTES (1000 per burst), BENCH_CATALOG_TENANTS (32),
// BENCH_ONLY=hot (the hot-replica mode alone, without the dataset),
// BENCH_ONLY=catalog (the dataset and the parallel-catalog mode alone),
// BENCH_STATEMENTS=1 (where the server's time per pair goes; pg-statements.ts).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import pg from 'pg';
import { sha256Hex } from '../../contract/digest.ts';
import { scaleDataset } from '../../load/lib/dataset.js';
import { openPostgresStore, startEmbeddedPostgres } from '../../reference/store/postgres/index.ts';
import { databaseUrl } from '../../reference/store/postgres/database.ts';
import { parallelCatalogRounds } from './pg-catalog.ts';
import { hotReplicaRounds } from './pg-hot.ts';
import { printStatementCosts, resetStatementStats, STATEMENT_SETTINGS } from './pg-statements.ts';
import { fmt, median, percentile } from './stats.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const PAIR_ROUND_MS = Number(process.env['BENCH_ROUND_MS'] ?? 5000);
const PGBENCH_SECONDS = Number(process.env['BENCH_PGBENCH_SECONDS'] ?? 10);
const CLIENTS = 8;
const STATEMENTS = process.env['BENCH_STATEMENTS'] === '1';
const HOT_ONLY = process.env['BENCH_ONLY'] === 'hot';
const CATALOG_ONLY = process.env['BENCH_ONLY'] === 'catalog';
const run = promisify(execFile);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** CPU seconds from /proc: a process's own, and its waited-for children's. */
const PROC = existsSync('/proc/self/stat');
const TICK_S = PROC ? 1 / Number((await run('getconf', ['CLK_TCK'])).stdout.trim() || 100) : 0;
function statFields(pid: number | string): string[] | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // exited meanwhile
  }
}
/** Everything the server has spent: the postmaster, its live children and the children it reaped. */
function serverCpuS(postmaster: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (!f) continue;
    if (Number(entry) === postmaster) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    else if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * TICK_S;
}
const ownCpuS = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const server = await startEmbeddedPostgres(STATEMENTS ? { settings: STATEMENT_SETTINGS } : {});
try {
  const admin = new pg.Client(server.url);
  await admin.connect();
  await admin.query('CREATE DATABASE registry');
  await admin.query('CREATE DATABASE pgbench');
  const settings = (
    await admin.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM unnest(ARRAY['server_version', 'fsync', 'synchronous_commit',
         'full_page_writes', 'wal_level', 'shared_buffers', 'max_wal_size']) AS name`,
    )
  ).rows.map((r) => `${r.name}=${r.setting}`);
  console.log(`server: ${settings.join(', ')}`);
  const backend = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const postmaster = PROC ? Number(statFields(backend)?.[1] ?? 0) : 0;
  const cpu = PROC && postmaster > 0;
  await admin.end();
  console.log(`load average at start: ${load()}`);

  const store = await openPostgresStore({ url: databaseUrl(server.url, 'registry') });
  // The dataset's pairs and pgbench, unless only the hot-replica mode is asked for.
  if (!HOT_ONLY) {
    const data = scaleDataset({ runId: 'bench', sha256Hex, leaseUntilMs: Date.now() + 24 * 3_600_000 });

    let started = performance.now();
    for (const items of data.batches(1000)) {
      const { results } = await store.applyBatch(items);
      const rejected = results.find((r) => r.outcome === 'rejected');
      if (rejected) throw new Error(`seed item rejected: ${JSON.stringify(rejected)}`);
    }
    console.log(`dataset: ${JSON.stringify(data.counts)}`);
    console.log(`seed: ${fmt((performance.now() - started) / 1000, 1)} s (target < 30 s)`);

    const tenants = Array.from({ length: data.dimensions.tenants }, (_, k) => ({
      id: data.ids.tenant(k + 1),
      capabilities: data.tenantCapabilities(k + 1),
    }));
    if (!CATALOG_ONLY) {
      const routeMs: number[] = [];

      /** Pairs per second, and the CPU seconds per pair of the server and of this (the store's) process. */
      async function pairsRound(round: number): Promise<{ rate: number; serverS: number; storeS: number }> {
        let pairs = 0;
        const server0 = cpu ? serverCpuS(postmaster) : 0;
        const own0 = ownCpuS();
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
        return {
          rate: pairs / (PAIR_ROUND_MS / 1000),
          serverS: cpu ? (serverCpuS(postmaster) - server0) / pairs : 0,
          storeS: (ownCpuS() - own0) / pairs,
        };
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
      /** Transactions per second, and the CPU seconds per transaction of the server and of pgbench itself. */
      async function pgbenchRound(): Promise<{ rate: number; serverS: number; clientS: number }> {
        const args = [...pgbenchArgs, '-N', '-c', String(CLIENTS), '-j', '2', '-T', String(PGBENCH_SECONDS), 'pgbench'];
        const server0 = cpu ? serverCpuS(postmaster) : 0;
        // Through a shell that reports, once pgbench has exited, the CPU time of
        // the children it waited for: pgbench's own.
        const { stdout } = cpu
          ? await run('sh', ['-c', 'pgbench "$@" && cat /proc/$$/stat', 'sh', ...args], { env: pgbenchEnv })
          : await run('pgbench', args, { env: pgbenchEnv });
        const tps = /tps = ([0-9.]+)/.exec(stdout);
        if (!tps) throw new Error(`unexpected pgbench output: ${stdout}`);
        const rate = Number(tps[1]);
        const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? rate * PGBENCH_SECONDS);
        if (!cpu) return { rate, serverS: 0, clientS: 0 };
        await new Promise((resolve) => setTimeout(resolve, 200)); // let the postmaster reap the exited backends
        const shell = stdout.trimEnd().split('\n').at(-1)!;
        const f = shell.slice(shell.lastIndexOf(')') + 2).split(' ');
        return {
          rate,
          serverS: (serverCpuS(postmaster) - server0) / transactions,
          clientS: ((Number(f[13]) + Number(f[14])) * TICK_S) / transactions,
        };
      }

      await pairsRound(-1); // warm-up: connections, prepared statements, caches
      routeMs.length = 0;
      if (STATEMENTS) await resetStatementStats(databaseUrl(server.url, 'registry'));
      const pairRounds: Array<{ rate: number; serverS: number; storeS: number }> = [];
      const pgbenchRounds: Array<{ rate: number; serverS: number; clientS: number }> = [];
      for (let round = 0; round < ROUNDS; round++) {
        pairRounds.push(await pairsRound(round));
        if (!pgbenchMissing) pgbenchRounds.push(await pgbenchRound());
        console.log(
          `round ${round + 1}: ${fmt(pairRounds[round]!.rate)} pairs/s${pgbenchMissing ? '' : `, pgbench ${fmt(pgbenchRounds[round]!.rate)} tps`}`,
        );
      }
      const pairs = median(pairRounds.map((r) => r.rate));
      console.log(`pairs: ${fmt(pairs)} resolve+settle pairs/s at ${CLIENTS} clients (median of ${ROUNDS})`);
      console.log(`route: p50 ${fmt(percentile(routeMs, 50), 2)} ms, p99 ${fmt(percentile(routeMs, 99), 2)} ms `);
      if (STATEMENTS)
        await printStatementCosts(
          databaseUrl(server.url, 'registry'),
          pairRounds.reduce((n, r) => n + (r.rate * PAIR_ROUND_MS) / 1000, 0),
        );
      const status = await store.fleetStatus();
      if (status.active_assignments !== 0)
        throw new Error(`${status.active_assignments} assignments still active after settling every pair`);
      const ms = (s: number) => fmt(s * 1000, 3);
      if (cpu) {
        const serverPair = median(pairRounds.map((r) => r.serverS));
        const storePair = median(pairRounds.map((r) => r.storeS));
        console.log(
          `cpu per pair: server ${ms(serverPair)} ms + store process ${ms(storePair)} ms = ${ms(serverPair + storePair)} ms (medians)`,
        );
        if (!pgbenchMissing) {
          const serverTx = median(pgbenchRounds.map((r) => r.serverS));
          const clientTx = median(pgbenchRounds.map((r) => r.clientS));
          console.log(
            `cpu per pgbench transaction: server ${ms(serverTx)} ms + pgbench ${ms(clientTx)} ms = ${ms(serverTx + clientTx)} ms (medians)`,
          );
          console.log(`server cpu per pair: ${fmt(serverPair / serverTx, 2)}× a pgbench transaction's (target <= 2.5)`);
          console.log(`cpu ratio: ${fmt((serverTx + clientTx) / (serverPair + storePair), 2)} (the ratio when CPU is the limit)`);
        }
      }
      if (!pgbenchMissing) {
        const tps = median(pgbenchRounds.map((r) => r.rate));
        console.log(`pgbench: ${fmt(tps)} tps simple-update at ${CLIENTS} clients, 2 threads (median of ${ROUNDS})`);
        console.log(`ratio: ${fmt(pairs / tps, 2)} (target >= 0.4)`);
      }
    }
    await parallelCatalogRounds(
      store,
      tenants.map((t) => t.id),
      ROUNDS,
    );
  }
  if (!CATALOG_ONLY) await hotReplicaRounds(store, ROUNDS, Date.now() + 24 * 3_600_000);
  console.log(`load average at end: ${load()}`);
  await store.close();
} finally {
  await server.stop();
}
