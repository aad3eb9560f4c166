// bench:pg — the PostgreSQL store on one embedded server (durable settings,
// as `fleetproof serve --store postgres` runs it), in three modes that share
// the server: seed time of the aip-fleet-slo-v1 dataset through the batch
// operation, then resolve+settle pairs against pgbench on the same server
// (pg-pairs.ts: pairs/s ÷ pgbench tps, and the CPU each side spends), then
// the parallel-catalog mode (pg-catalog.ts: many tenants' first catalog pages
// at once, each view built at a new revision, against the same reads with
// the views built), then the hot-replica mode (pg-hot.ts: bursts of
// concurrent resolves for one tenant, capability and replica with room,
// served in full, in routes/s).
// Knobs: BENCH_ROUNDS (3), BENCH_ROUND_MS (5000), BENCH_PGBENCH_SECONDS (10),
// BENCH_HOT_ROUTES (1000 per burst), BENCH_CATALOG_TENANTS (32),
// BENCH_ONLY=hot (the hot-replica mode alone, without the dataset),
// BENCH_ONLY=catalog (the dataset and the parallel-catalog mode alone),
// BENCH_STATEMENTS=1 (where the server's time per pair goes; pg-statements.ts),
// BENCH_DATA_POOL (the store's data-plane connections; its default otherwise).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openPostgresStore, startEmbeddedPostgres } from '../../reference/store/postgres/index.ts';
import { databaseUrl } from '../../reference/store/postgres/database.ts';
import { parallelCatalogRounds } from './pg-catalog.ts';
import { PROC, statFields } from './pg-cpu.ts';
import { seedScaleDataset } from './pg-dataset.ts';
import { hotReplicaRounds } from './pg-hot.ts';
import { pairsAgainstPgbench } from './pg-pairs.ts';
import { STATEMENT_SETTINGS } from './pg-statements.ts';
import { fmt } from './stats.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const STATEMENTS = process.env['BENCH_STATEMENTS'] === '1';
const HOT_ONLY = process.env['BENCH_ONLY'] === 'hot';
const CATALOG_ONLY = process.env['BENCH_ONLY'] === 'catalog';
const DATA_POOL = process.env['BENCH_DATA_POOL'] === undefined ? undefined : Number(process.env['BENCH_DATA_POOL']);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

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
  await admin.end();
  console.log(`load average at start: ${load()}`);

  const registryUrl = databaseUrl(server.url, 'registry');
  const store = await openPostgresStore({ url: registryUrl, ...(DATA_POOL === undefined ? {} : { dataPoolSize: DATA_POOL }) });
  if (DATA_POOL !== undefined) console.log(`data pool: ${DATA_POOL} connections`);
  // The dataset, unless only the hot-replica mode is asked for.
  if (!HOT_ONLY) {
    const started = performance.now();
    const { counts, tenants } = await seedScaleDataset(store);
    console.log(`dataset: ${JSON.stringify(counts)}`);
    console.log(`seed: ${fmt((performance.now() - started) / 1000, 1)} s (target < 30 s)`);
    if (!CATALOG_ONLY)
      await pairsAgainstPgbench({
        store,
        server,
        registryUrl,
        postmaster,
        tenants,
        rounds: ROUNDS,
        roundMs: Number(process.env['BENCH_ROUND_MS'] ?? 5000),
        pgbenchSeconds: Number(process.env['BENCH_PGBENCH_SECONDS'] ?? 10),
        statements: STATEMENTS,
      });
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
