// bench:load — the load generators themselves: fleetproof's Node runner and,
// when it is on PATH, real k6, each driving one GET /version per arrival
// from one async function (http.asyncRequest; load/bench/arrivals.js) at
// fixed constant arrival rates against one reference server (`fleetproof
// serve`, memory store, its own process). For every rate and engine it
// prints the rate achieved (requests ÷ the scenario's duration), the
// iterations dropped (no free VU), how long the test ran (duration plus at
// most the 2 s graceful stop when the engine ends on time), the generator's
// p99 request latency and its CPU time per request, then Node runner ÷ k6
// for the rate achieved and the CPU per request. Each engine runs in its
// own process, so its CPU time is its own.
// Knobs: BENCH_RATES (1000,2000,5000), BENCH_DURATION_S (5), BENCH_VUS (VUs
// per 1000/s, 8).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { findK6 } from '../../load/runner/engines.ts';
import { runWithNodeEngine } from '../../load/runner/node-engine/engine.ts';
import { fmt } from './stats.ts';

const RATES = (process.env['BENCH_RATES'] ?? '1000,2000,5000').split(',').map(Number);
const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 5);
const VUS_PER_1000 = Number(process.env['BENCH_VUS'] ?? 8);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'load/bench/arrivals.js');
const SELF = fileURLToPath(import.meta.url);

interface Summary {
  requests: number;
  iterations: number;
  dropped: number;
  test_ms: number;
  p99_ms: number | null;
}

interface Measured extends Summary {
  cpu_s: number;
}

if (process.argv[2] === '--node-runner') await nodeRunnerChild(JSON.parse(process.argv[3]!) as Record<string, string>);
else await main();

/** One Node runner test in this process; prints its CPU seconds. */
async function nodeRunnerChild(env: Record<string, string>): Promise<void> {
  const before = process.cpuUsage();
  const r = await runWithNodeEngine({ scriptPath: SCRIPT, env, progress: () => {} });
  const used = process.cpuUsage(before);
  if (r.error) throw new Error(r.error);
  console.log(JSON.stringify({ cpu_s: (used.user + used.system) / 1e6 }));
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}`))));
  });
}

/** `times` in bash prints the shell's and then its children's user and system time. */
function childCpuSeconds(timesOutput: string): number {
  const line = timesOutput.trim().split('\n').pop()!;
  const secs = [...line.matchAll(/([0-9]+)m([0-9.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return secs.reduce((a, b) => a + b, 0);
}

async function measure(engine: 'node' | 'k6', env: Record<string, string>): Promise<Measured> {
  let cpu: number;
  if (engine === 'node') {
    const out = await run(process.execPath, ['--import', 'tsx', SELF, '--node-runner', JSON.stringify(env)]);
    cpu = (JSON.parse(out.trim().split('\n').pop()!) as { cpu_s: number }).cpu_s;
  } else {
    const flags = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const out = await run('bash', ['-c', '"$@" >/dev/null 2>&1; times', 'bash', 'k6', 'run', '-q', ...flags, SCRIPT]);
    cpu = childCpuSeconds(out);
  }
  return { ...(JSON.parse(await readFile(env['SUMMARY']!, 'utf8')) as Summary), cpu_s: cpu };
}

function startReference(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['bin/fleetproof.js', 'serve', '--store', 'memory', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ child, url: line.replace('listening on ', '') }));
    child.once('exit', (code) => reject(new Error(`the reference exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const k6 = findK6();
  const dir = await mkdtemp(join(tmpdir(), 'bench-load-'));
  const reference = await startReference();
  try {
    console.log(
      `one GET /version per arrival, ${DURATION_S} s per rate, ${VUS_PER_1000} VUs per 1000/s, reference on the memory store at ${reference.url}, warmed by an unmeasured pass`,
    );
    console.log(
      `engines: node-runner${k6 ? `, k6 ${k6}` : ' (no k6 on PATH: k6 not measured)'}; a busy shared machine: figures swing with the neighbours' load`,
    );
    // The reference's own code compiles in its first seconds of load; an unmeasured pass keeps whichever engine runs first from meeting it cold.
    await measure('node', {
      TARGET: reference.url,
      RATE: String(Math.min(...RATES)),
      DURATION_S: '2',
      VUS: String(VUS_PER_1000),
      SUMMARY: join(dir, 'warm-up.json'),
    });
    console.log(['engine', 'target/s', 'achieved/s', 'dropped', 'test s', 'p99 ms', 'CPU µs/req'].map((h) => h.padStart(12)).join(''));
    const perReq = (m: Measured) => m.cpu_s / Math.max(1, m.requests);
    for (const rate of RATES) {
      const results = new Map<'node' | 'k6', Measured>();
      for (const engine of k6 ? (['node', 'k6'] as const) : (['node'] as const)) {
        const m = await measure(engine, {
          TARGET: reference.url,
          RATE: String(rate),
          DURATION_S: String(DURATION_S),
          VUS: String(Math.max(2, Math.ceil((rate / 1000) * VUS_PER_1000))),
          SUMMARY: join(dir, `${engine}-${rate}.json`),
        });
        results.set(engine, m);
        const row = [
          engine === 'node' ? 'node-runner' : 'k6',
          fmt(rate),
          fmt(m.requests / DURATION_S),
          fmt(m.dropped),
          fmt(m.test_ms / 1000, 1),
          m.p99_ms === null ? '-' : fmt(m.p99_ms, 2),
          fmt(perReq(m) * 1e6),
        ];
        console.log(row.map((c) => c.padStart(12)).join(''));
      }
      const node = results.get('node')!;
      const k = results.get('k6');
      if (k)
        console.log(
          `  at ${fmt(rate)}/s node-runner ÷ k6: rate achieved ${fmt(node.requests / Math.max(1, k.requests), 3)}, CPU per request ${fmt(perReq(node) / perReq(k), 2)}`,
        );
    }
  } finally {
    reference.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}
