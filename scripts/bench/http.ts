// bench:http — resolve+settle pairs per second through the reference server
// (`fleetproof serve`, memory store) over loopback, next to a bare node:http
// server that answers the same requests with fixed bodies of the same sizes,
// driven by the same client at the same concurrency. Both servers run in their
// own process. Each round is a registry slice followed at once by a bare
// slice, so a neighbour's load falls on both alike; the medians are compared:
//   ratio = registry pairs/s ÷ bare requests/s × 2   (cost per request; targets: ≥ 0.7 on a
//   quiet machine, ≥ 0.5 at a load average of 3)
// It also reports the CPU time each server spends per request (from /proc),
// which swings far less with a neighbour's load than throughput does.
// Knobs: BENCH_ROUNDS (9), BENCH_ROUND_MS (1500), BENCH_CONNECTIONS (32), BENCH_TENANTS (8);
// BENCH_CPU_PROF=DIR writes V8 CPU profiles of both server processes into DIR.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { loadSigningKey, writeSigningKeys, type SigningKey } from '../../contract/tokens.ts';
import { mintToken } from '../../client/token-minter.ts';
import { b, HOUR } from '../../reference/store/test/behaviour/world.ts';
import { ROOT, startListening } from './listening-child.ts';
import { fmt, median } from './stats.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 9);
const ROUND_MS = Number(process.env['BENCH_ROUND_MS'] ?? 1500);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const TENANTS = Number(process.env['BENCH_TENANTS'] ?? 8);
const PROFILE_DIR = process.env['BENCH_CPU_PROF'];

interface Exchange {
  path: string;
  body: string;
  headers: Record<string, string>;
}

if (process.argv[2] === '--bare-server') await bareServer(JSON.parse(process.argv[3]!) as Record<string, string>);
else await main();

/** The baseline: reads each body and answers with a fixed JSON body chosen by path. */
async function bareServer(replies: Record<string, string>): Promise<void> {
  const resolveReply = replies['resolve']!;
  const settleReply = replies['settle']!;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const payload = req.url === '/v1/routes' ? resolveReply : settleReply;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-request-id': 'bare' });
      res.end(payload);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    console.log(`listening on http://127.0.0.1:${address.port}`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

/**
 * CPU seconds a process has used (user + system), from /proc; null where there
 * is none. Throughput swings with a neighbour's load, CPU time per request much
 * less, so it is the figure to compare when profiling.
 */
function cpuSeconds(pid: number | undefined): { user: number; system: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return null;
  }
}

interface CpuPerRequest {
  /** User and system CPU microseconds per request, and their sum. */
  user: number;
  system: number;
  total: number;
}

/** Runs a slice and returns its rate and the server's CPU microseconds per request. */
async function measured(
  pid: number | undefined,
  requestsPerUnit: number,
  slice: () => Promise<number>,
): Promise<{ rate: number; cpu: CpuPerRequest | null }> {
  const before = cpuSeconds(pid);
  const rate = await slice();
  const after = cpuSeconds(pid);
  const requests = (rate * requestsPerUnit * ROUND_MS) / 1000;
  if (before === null || after === null || requests === 0) return { rate, cpu: null };
  const user = ((after.user - before.user) * 1e6) / requests;
  const system = ((after.system - before.system) * 1e6) / requests;
  return { rate, cpu: { user, system, total: user + system } };
}

async function send(pool: Pool, x: Exchange): Promise<string> {
  const res = await pool.request({ method: 'POST', path: x.path, body: x.body, headers: x.headers });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${x.path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return text;
}

async function seed(url: string, key: SigningKey): Promise<string[]> {
  const pool = new Pool(url, { connections: 1 });
  const admin = await mintToken({ key, roles: ['registry:admin', 'registry:lifecycle'] });
  const headers = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
  const type = b.connectorType('ctype_bench');
  const version = b.version('cver_bench', type.id, [b.capability('cap.bench.run')]);
  const items: unknown[] = [
    { op: 'put_connector_type', record: type },
    { op: 'admit_version', record: version },
    { op: 'put_admission_policy', record: b.policy('policy-bench') },
  ];
  const tenants = Array.from({ length: TENANTS }, (_, i) => `tenant-bench-${i}`);
  for (const [i, tenant] of tenants.entries()) {
    const instance = b.instance(`cinst_bench_${i}`, type.id, version.id, tenant);
    items.push({ op: 'put_instance', record: instance });
    for (let r = 0; r < 4; r++) {
      items.push({
        op: 'provision_replica',
        record: b.replica(`crepl_bench_${i}_${r}`, instance.id, version.id, Date.now() + 24 * HOUR, { capacity: 1_000_000 }),
      });
    }
    items.push({ op: 'put_binding', record: b.binding(tenant, 'cap.bench.run', instance.id, { quota_policy_ref: 'policy-bench' }) });
  }
  const result = JSON.parse(await send(pool, { path: '/v1/batch', body: JSON.stringify({ items }), headers })) as {
    results: Array<{ outcome: string }>;
  };
  const rejected = result.results.filter((r) => r.outcome === 'rejected');
  if (rejected.length > 0) throw new Error(`seed rejected: ${JSON.stringify(rejected[0])}`);
  await pool.close();
  return tenants;
}

/** C workers for `ms`; each step is one resolve and its settlement against the registry. */
async function registryRound(pool: Pool, tokens: string[], round: string, ms: number): Promise<number> {
  let pairs = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, w) => {
      const headers = { authorization: `Bearer ${tokens[w % tokens.length]}`, 'content-type': 'application/json' };
      for (let i = 0; performance.now() < end; i++) {
        const actionId = `act-${round}-${w}-${i}`;
        const view = JSON.parse(
          await send(pool, { path: '/v1/routes', body: JSON.stringify({ action_id: actionId, capability_id: 'cap.bench.run' }), headers }),
        );
        const body = JSON.stringify({ assignment: view.assignment, outcome: 'completed' });
        await send(pool, { path: `/v1/routes/${actionId}/settlement`, body, headers });
        pairs++;
      }
    }),
  );
  return pairs / (ms / 1000);
}

/** The same client work against the bare server: the same two request shapes, alternating. */
async function bareRound(pool: Pool, sample: { resolve: Exchange; settle: Exchange }, ms: number): Promise<number> {
  let requests = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        JSON.parse(await send(pool, sample.resolve));
        await send(pool, sample.settle);
        requests += 2;
      }
    }),
  );
  return requests / (ms / 1000);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-bench-'));
  const children: ChildProcess[] = [];
  try {
    const files = await writeSigningKeys(dir);
    const key = await loadSigningKey(files.signingKeyPath);
    const profile = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];
    const registry = await startListening([
      ...profile,
      join(ROOT, 'bin/fleetproof.js'),
      'serve',
      '--store',
      'memory',
      '--port',
      '0',
      '--jwks',
      files.jwksPath,
    ]);
    children.push(registry.child);
    const tenants = await seed(registry.url, key);
    const tokens = await Promise.all(tenants.map((tenant) => mintToken({ key, roles: ['registry:dispatch'], tenant })));

    // One real pair gives the request and reply sizes the bare server reproduces.
    const pool = new Pool(registry.url, { connections: CONNECTIONS });
    const headers = { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' };
    const resolve: Exchange = {
      path: '/v1/routes',
      body: JSON.stringify({ action_id: 'act-sample', capability_id: 'cap.bench.run' }),
      headers,
    };
    const resolveReply = await send(pool, resolve);
    const settle: Exchange = {
      path: '/v1/routes/act-sample/settlement',
      body: JSON.stringify({ assignment: JSON.parse(resolveReply).assignment, outcome: 'completed' }),
      headers,
    };
    const settleReply = await send(pool, settle);
    const bare = await startListening([
      ...profile,
      '--import',
      'tsx',
      join(ROOT, 'scripts/bench/http.ts'),
      '--bare-server',
      JSON.stringify({ resolve: resolveReply, settle: settleReply }),
    ]);
    children.push(bare.child);
    const barePool = new Pool(bare.url, { connections: CONNECTIONS });

    console.log(
      `node ${process.version}, ${CONNECTIONS} connections, ${TENANTS} tenants, ${ROUNDS} rounds of ${ROUND_MS} ms each (after one warm-up); ` +
        `load average ${fmt(loadavg()[0]!, 2)}`,
    );
    console.log(
      `request bytes: resolve ${resolve.body.length}, settle ${settle.body.length}; reply bytes: resolve ${resolveReply.length}, settle ${settleReply.length}`,
    );
    await registryRound(pool, tokens, 'warm', Math.min(ROUND_MS, 1000));
    await bareRound(barePool, { resolve, settle }, Math.min(ROUND_MS, 1000));
    const pairs: number[] = [];
    const bareRequests: number[] = [];
    const roundRatios: number[] = [];
    const registryCpu: CpuPerRequest[] = [];
    const bareCpu: CpuPerRequest[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const r = await measured(registry.child.pid, 2, () => registryRound(pool, tokens, String(round), ROUND_MS));
      const b = await measured(bare.child.pid, 1, () => bareRound(barePool, { resolve, settle }, ROUND_MS));
      pairs.push(r.rate);
      bareRequests.push(b.rate);
      roundRatios.push((r.rate / b.rate) * 2);
      if (r.cpu !== null && b.cpu !== null) {
        registryCpu.push(r.cpu);
        bareCpu.push(b.cpu);
      }
      const cpu = r.cpu !== null && b.cpu !== null ? `; server CPU per request ${fmt(r.cpu.total)} µs vs ${fmt(b.cpu.total)} µs` : '';
      console.log(
        `round ${round + 1}: registry ${fmt(r.rate)} pairs/s, bare ${fmt(b.rate)} requests/s, ratio ${fmt(roundRatios.at(-1)!, 2)}${cpu}`,
      );
    }
    await Promise.all([pool.close(), barePool.close()]);
    const registryMedian = median(pairs);
    const bareMedian = median(bareRequests);
    console.log(`registry: ${fmt(registryMedian)} resolve+settle pairs/s (median)`);
    console.log(`bare: ${fmt(bareMedian)} requests/s (median)`);
    console.log(`median of round ratios: ${fmt(median(roundRatios), 2)}`);
    if (registryCpu.length > 0) {
      const describe = (cpu: CpuPerRequest[]) =>
        `${fmt(median(cpu.map((c) => c.total)))} µs (user ${fmt(median(cpu.map((c) => c.user)))}, system ${fmt(median(cpu.map((c) => c.system)))})`;
      console.log(`server CPU per request (median): registry ${describe(registryCpu)}, bare ${describe(bareCpu)}`);
    }
    console.log(`ratio: ${fmt((registryMedian / bareMedian) * 2, 2)} (targets: >= 0.7 quiet, >= 0.5 at a load average of 3)`);
    console.log(`load average at the end: ${fmt(loadavg()[0]!, 2)}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}
