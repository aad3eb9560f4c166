// bench:pg-ab FILE.sql — what a schema or function change does to the
// server's CPU per resolve+settle pair, measured side by side: two databases
// on one embedded server (durable settings, as bench:pg), each seeded with
// the aip-fleet-slo-v1 dataset by its own store, the second then changed by
// FILE.sql. Pair rounds at 8 clients alternate between the two (A B, B A,
// ...), so a neighbour's load falls on both alike, and each round's CPU per
// pair on B is divided by the neighbouring A round's: the median of those
// ratios is the figure. Whole bench:pg runs of two trees, one after the
// other, move more with the machine than a change of a few per cent does.
// Knobs: BENCH_ROUNDS (10 per side), BENCH_ROUND_MS (2000).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { databaseUrl } from '../../reference/store/postgres/database.ts';
import { openPostgresStore, startEmbeddedPostgres } from '../../reference/store/postgres/index.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { drivePairs } from './pair-load.ts';
import { PROC, serverCpuS, statFields } from './pg-cpu.ts';
import { seedScaleDataset, type SeededTenant } from './pg-dataset.ts';
import { withClient } from './pg-statements.ts';
import { fmt, median } from './stats.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 10);
const ROUND_MS = Number(process.env['BENCH_ROUND_MS'] ?? 2000);
const CLIENTS = 8;
const file = process.argv[2];
if (!file || !PROC) {
  console.error(file ? 'bench:pg-ab reads CPU time from /proc, which this machine lacks' : 'usage: npm run bench:pg-ab -- FILE.sql');
  process.exit(2);
}
const change = readFileSync(file, 'utf8');

async function seeded(url: string): Promise<{ store: RegistryStore; tenants: SeededTenant[] }> {
  const store = await openPostgresStore({ url });
  return { store, tenants: (await seedScaleDataset(store)).tenants };
}

/** Pairs for ROUND_MS (or `ms`); the server's CPU milliseconds per pair. */
async function round(store: RegistryStore, tenants: SeededTenant[], postmaster: number, tag: string, ms = ROUND_MS): Promise<number> {
  const cpu0 = serverCpuS(postmaster);
  const pairs = await drivePairs({ store, tenants, clients: CLIENTS, ms, tag });
  return ((serverCpuS(postmaster) - cpu0) * 1000) / pairs;
}

const server = await startEmbeddedPostgres();
try {
  const admin = new pg.Client(server.url);
  await admin.connect();
  await admin.query('CREATE DATABASE registry_a');
  await admin.query('CREATE DATABASE registry_b');
  const backend = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const postmaster = Number(statFields(backend)![1]);
  await admin.end();
  console.log(`load average at start: ${loadavg()[0]!.toFixed(2)}; seeding two databases`);
  const a = await seeded(databaseUrl(server.url, 'registry_a'));
  const b = await seeded(databaseUrl(server.url, 'registry_b'));
  try {
    // A file the migrated schema already holds (a migration of this tree) fails here, not in a round.
    await withClient(databaseUrl(server.url, 'registry_b'), (c) => c.query(change)).catch((err: Error) => {
      throw new Error(`${file} failed on registry_b, migrated by this tree: ${err.message}`);
    });
    console.log(`B: registry_b changed by ${file}`);
    // Warm-up: every tenant and capability's eligible bindings read once on each side.
    await round(a.store, a.tenants, postmaster, 'warm', 3000);
    await round(b.store, b.tenants, postmaster, 'warm', 3000);
    const cpuA: number[] = [];
    const cpuB: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      for (const side of order) {
        const s = side === 'A' ? a : b;
        (side === 'A' ? cpuA : cpuB).push(await round(s.store, s.tenants, postmaster, String(r)));
      }
      console.log(`round ${r + 1}: server CPU per pair A ${fmt(cpuA[r]!, 3)} ms, B ${fmt(cpuB[r]!, 3)} ms`);
    }
    const ratios = cpuB.map((x, i) => x / cpuA[i]!);
    console.log(`server CPU per pair (medians): A ${fmt(median(cpuA), 3)} ms, B ${fmt(median(cpuB), 3)} ms`);
    console.log(
      `B ÷ A, median of ${ROUNDS} paired rounds: ${fmt(median(ratios), 3)} (range ${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)})`,
    );
  } finally {
    await Promise.all([a.store.close(), b.store.close()]);
  }
  console.log(`load average at end: ${loadavg()[0]!.toFixed(2)}`);
} finally {
  await server.stop();
}
