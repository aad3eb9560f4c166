// bench:conform — how long the whole conformance suite takes against the
// reference on the memory store, started in-process (target: under 60 s on
// a 2-core machine). Medians of several rounds, next to a baseline measured in
// the same run: the suite's own request count sent as bare version reads, the
// least any run of it must cost.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HttpTransport } from '../../client/http-transport.ts';
import { readVersionInfo } from '../../client/version.ts';
import { runConformance } from '../../conformance/runner/run.ts';
import { startReferenceTarget } from '../../conformance/test/reference-target.ts';
import { writeConformanceReports } from '../../reports/conformance/write.ts';
import { fmt, median } from './stats.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const suiteMs: number[] = [];
const baselineMs: number[] = [];
let cases = 0;
let exchanges = 0;

for (let round = 0; round < ROUNDS; round++) {
  const target = await startReferenceTarget({ silent: true });
  const out = await mkdtemp(join(tmpdir(), 'fleetproof-bench-conform-'));
  try {
    let started = performance.now();
    const outcome = await runConformance({ config: target.config({ out }), signingKey: target.key, writeReports: writeConformanceReports });
    suiteMs.push(performance.now() - started);
    if (outcome.exitCode !== 0 || !outcome.result)
      throw new Error(`the suite did not qualify the reference: ${outcome.error ?? outcome.exitCode}`);
    cases = outcome.result.cases.length;
    exchanges = outcome.result.cases.reduce((n, c) => n + c.exchange_count, 0);
    const transport = new HttpTransport({ baseUrl: target.url, timeoutMs: 10_000, connections: 1 });
    started = performance.now();
    for (let i = 0; i < Math.max(exchanges, 1); i++) await readVersionInfo(transport);
    baselineMs.push(performance.now() - started);
    await transport.close();
  } finally {
    await rm(out, { recursive: true, force: true });
    await target.close();
  }
}

console.log(`conformance suite: ${cases} cases, ${exchanges} exchanges`);
console.log(`suite wall time: ${fmt(median(suiteMs) / 1000, 1)} s (median of ${ROUNDS}; target < 60 s)`);
console.log(`baseline (same number of sequential GET /version): ${fmt(median(baselineMs) / 1000, 2)} s`);
