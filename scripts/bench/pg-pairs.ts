// bench:pg's pairs mode: resolve+settle pairs per second at 8 concurrent
// clients over the aip-fleet-slo-v1 dataset, with the route latency, against
// pgbench's simple-update transactions per second at the same client count on
// the same server, as the yardstick: `ratio` is pairs/s ÷ pgbench tps. Pair
// and pgbench rounds alternate so that both see the same machine; the figures
// are medians over the rounds. Where /proc is there (pg-cpu.ts) it also gives
// the CPU time each side spends: the server's per pair and per pgbench
// transaction, the store process's per pair and pgbench's own per
// transaction. On a machine whose CPUs are the limit (both sides share them)
// the ratio follows those costs, and they swing far less with a neighbour's
// load than throughput does.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { drivePairs } from './pair-load.ts';
import { ownCpuS, serverCpuS, TICK_S } from './pg-cpu.ts';
import type { SeededTenant } from './pg-dataset.ts';
import { printStatementCosts, resetStatementStats } from './pg-statements.ts';
import { fmt, median, percentile } from './stats.ts';

const CLIENTS = 8;
const run = promisify(execFile);

export interface PairsBench {
  store: RegistryStore;
  /** The embedded server's URL (its password), port and socket directory, for pgbench. */
  server: { url: string; port: number; socketDir: string | null };
  /** The registry database's URL, for the statement costs. */
  registryUrl: string;
  /** The postmaster's pid, or 0 where its CPU cannot be read. */
  postmaster: number;
  tenants: readonly SeededTenant[];
  rounds: number;
  roundMs: number;
  pgbenchSeconds: number;
  /** Print where the server's time per pair goes (BENCH_STATEMENTS=1). */
  statements: boolean;
}

interface PairRound {
  rate: number;
  serverS: number;
  storeS: number;
}

interface PgbenchRound {
  rate: number;
  serverS: number;
  clientS: number;
}

export async function pairsAgainstPgbench(b: PairsBench): Promise<void> {
  const cpu = b.postmaster > 0;
  const routeMs: number[] = [];

  async function pairsRound(round: number): Promise<PairRound> {
    const server0 = cpu ? serverCpuS(b.postmaster) : 0;
    const own0 = ownCpuS();
    const pairs = await drivePairs({
      store: b.store,
      tenants: b.tenants,
      clients: CLIENTS,
      ms: b.roundMs,
      tag: String(round),
      onResolve: (ms) => routeMs.push(ms),
    });
    return {
      rate: pairs / (b.roundMs / 1000),
      serverS: cpu ? (serverCpuS(b.postmaster) - server0) / pairs : 0,
      storeS: (ownCpuS() - own0) / pairs,
    };
  }

  const pgbenchEnv = { ...process.env, PGPASSWORD: new URL(b.server.url).password };
  // pgbench reaches the server the way the store does: over its Unix socket when it has one.
  const pgbenchArgs = ['-h', b.server.socketDir ?? '127.0.0.1', '-p', String(b.server.port), '-U', 'postgres'];
  let pgbenchMissing = false;
  try {
    await run('pgbench', [...pgbenchArgs, '-i', '-q', 'pgbench'], { env: pgbenchEnv });
  } catch (err) {
    pgbenchMissing = true;
    console.log(`pgbench: not available (${(err as Error).message.split('\n')[0]}); install the PostgreSQL client tools for the ratio`);
  }

  async function pgbenchRound(): Promise<PgbenchRound> {
    const args = [...pgbenchArgs, '-N', '-c', String(CLIENTS), '-j', '2', '-T', String(b.pgbenchSeconds), 'pgbench'];
    const server0 = cpu ? serverCpuS(b.postmaster) : 0;
    // Through a shell that reports, once pgbench has exited, the CPU time of
    // the children it waited for: pgbench's own.
    const { stdout } = cpu
      ? await run('sh', ['-c', 'pgbench "$@" && cat /proc/$$/stat', 'sh', ...args], { env: pgbenchEnv })
      : await run('pgbench', args, { env: pgbenchEnv });
    const tps = /tps = ([0-9.]+)/.exec(stdout);
    if (!tps) throw new Error(`unexpected pgbench output: ${stdout}`);
    const rate = Number(tps[1]);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? rate * b.pgbenchSeconds);
    if (!cpu) return { rate, serverS: 0, clientS: 0 };
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the postmaster reap the exited backends
    const shell = stdout.trimEnd().split('\n').at(-1)!;
    const f = shell.slice(shell.lastIndexOf(')') + 2).split(' ');
    return {
      rate,
      serverS: (serverCpuS(b.postmaster) - server0) / transactions,
      clientS: ((Number(f[13]) + Number(f[14])) * TICK_S) / transactions,
    };
  }

  await pairsRound(-1); // warm-up: connections, prepared statements, caches
  routeMs.length = 0;
  if (b.statements) await resetStatementStats(b.registryUrl);
  const pairRounds: PairRound[] = [];
  const pgbenchRounds: PgbenchRound[] = [];
  for (let round = 0; round < b.rounds; round++) {
    pairRounds.push(await pairsRound(round));
    if (!pgbenchMissing) pgbenchRounds.push(await pgbenchRound());
    console.log(
      `round ${round + 1}: ${fmt(pairRounds[round]!.rate)} pairs/s${pgbenchMissing ? '' : `, pgbench ${fmt(pgbenchRounds[round]!.rate)} tps`}`,
    );
  }
  const pairs = median(pairRounds.map((r) => r.rate));
  console.log(`pairs: ${fmt(pairs)} resolve+settle pairs/s at ${CLIENTS} clients (median of ${b.rounds})`);
  console.log(`route: p50 ${fmt(percentile(routeMs, 50), 2)} ms, p99 ${fmt(percentile(routeMs, 99), 2)} ms `);
  if (b.statements)
    await printStatementCosts(
      b.registryUrl,
      pairRounds.reduce((n, r) => n + (r.rate * b.roundMs) / 1000, 0),
    );
  const status = await b.store.fleetStatus();
  if (status.active_assignments !== 0) throw new Error(`${status.active_assignments} assignments still active after settling every pair`);
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
    console.log(`pgbench: ${fmt(tps)} tps simple-update at ${CLIENTS} clients, 2 threads (median of ${b.rounds})`);
    console.log(`ratio: ${fmt(pairs / tps, 2)} (target >= 0.4)`);
  }
}
