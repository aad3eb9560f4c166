// npm run races — the suites prove on the reference that they catch
// check-then-act races every time, not sometimes. For each race-* defect
// (reference/defects/race/) it runs, RACES_RUNS times (default 10), the
// whole conformance suite against the embedded reference with that defect,
// and the property suites that claim the clause the defect breaks (until one
// fails) against the same reference over HTTP, while two CPU-bound processes keep the machine
// busy. Every run must fail the registry, in conformance and in the
// properties alike; the table gives the catch counts, which cases caught,
// and in which round of their bursts (the evidence behind the rounds of
// conformance/INTERPRETING.md). Exit 1 when any run missed.
//   RACES_RUNS=3 RACES_ONLY=race-settle-release npm run races
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { PROPERTY_CLAUSES } from '../certify/property-clauses.ts';
import { runConformance } from '../conformance/runner/run.ts';
import { startReferenceTarget } from '../conformance/test/reference-target.ts';
import { runProperties } from '../properties/runner/run-properties.ts';
import { SUITE_NAMES } from '../properties/suites/index.ts';
import { httpTarget } from '../properties/targets/http-target.ts';
import { startReferenceServer } from '../properties/test/reference-server.ts';
import { loadDefects } from '../reference/defects/catalogue.ts';
import type { Defect } from '../reference/defects/defect.ts';

const RUNS = Number(process.env['RACES_RUNS'] ?? 10);
const ONLY = (process.env['RACES_ONLY'] ?? '').split(',').filter(Boolean);
const HOGS = 2;

interface Tally {
  conformance: number;
  properties: number;
  /** case id → rounds in which it caught (0: a failure that names no round). */
  cases: Map<string, number[]>;
  suites: Map<string, number>;
  /** Wall time of each conformance run, and of each whole run. */
  conformSeconds: number[];
  seconds: number[];
}

/** Spins until its parent is gone, so no hog outlives this script however it ends. */
const HOG = 'const parent = process.ppid; for (let i = 0; ; i++) if (i % 1e7 === 0 && process.ppid !== parent) process.exit(0);';

function startHogs(): ChildProcess[] {
  return Array.from({ length: HOGS }, () => spawn(process.execPath, ['-e', HOG], { stdio: 'ignore' }));
}

async function conformanceRun(race: Defect, tally: Tally): Promise<boolean> {
  const target = await startReferenceTarget({ defect: race.name, silent: true });
  try {
    const outcome = await runConformance({ config: target.config(), signingKey: target.key, writeReports: false });
    if (outcome.exitCode === 2) throw new Error(`conformance could not run: ${outcome.error}`);
    for (const c of outcome.result!.cases.filter((x) => x.status === 'fail')) {
      const round = Number(/burst (\d+)/.exec(c.message ?? '')?.[1] ?? 0);
      tally.cases.set(c.id, [...(tally.cases.get(c.id) ?? []), round]);
    }
    return outcome.exitCode === 1;
  } finally {
    await target.close();
  }
}

async function propertiesRun(race: Defect, seed: number, tally: Tally): Promise<boolean> {
  // The suites that claim the broken clause, the one written for shared actions first.
  const suites = SUITE_NAMES.filter((s) => PROPERTY_CLAUSES[s].includes(race.clause)).sort(
    (a, b) => Number(b === 'shared-actions') - Number(a === 'shared-actions'),
  );
  const server = await startReferenceServer({ defect: race.name });
  const target = await httpTarget({ url: server.url, key: server.key });
  try {
    // One failing suite fails the registry; the rest of the run would only cost time.
    for (const suite of suites) {
      const [result] = (await runProperties({ target, suites: [suite], seed, env: {} })).suites;
      if (result!.status !== 'fail') continue;
      tally.suites.set(suite, (tally.suites.get(suite) ?? 0) + 1);
      return true;
    }
    return false;
  } finally {
    await target.close();
    await server.close();
  }
}

const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(1);

function report(race: Defect, t: Tally): string[] {
  const rounds = [...t.cases.values()].flat().filter((r) => r > 0);
  const firstRound = rounds.filter((r) => r === 1).length;
  const caught = [...t.cases].map(([id, rs]) => `${id} ${rs.length}× (rounds ${rs.join(',')})`);
  return [
    `${race.name} [${race.clause}]: conformance ${t.conformance}/${RUNS}, properties ${t.properties}/${RUNS}; a run ${mean(t.seconds)} s, its conformance suite ${mean(t.conformSeconds)} s`,
    `  cases that caught it: ${caught.join('; ') || 'none'}`,
    `  catches in round 1 of a burst: ${firstRound} of ${rounds.length}`,
    `  suites that caught it: ${[...t.suites].map(([s, n]) => `${s} ${n}×`).join('; ') || 'none'}`,
  ];
}

const races = (await loadDefects()).filter((d) => d.name.startsWith('race-') && (ONLY.length === 0 || ONLY.includes(d.name)));
const hogs = startHogs();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (hogs.forEach((h) => h.kill()), process.exit(130)));
let missed = 0;
const lines: string[] = [];
try {
  for (const race of races) {
    const tally: Tally = { conformance: 0, properties: 0, cases: new Map(), suites: new Map(), conformSeconds: [], seconds: [] };
    for (let run = 1; run <= RUNS; run++) {
      const started = performance.now();
      const seed = Date.now() % 1_000_000_007;
      const conformed = await conformanceRun(race, tally);
      tally.conformSeconds.push((performance.now() - started) / 1000);
      const propertied = await propertiesRun(race, seed, tally);
      tally.conformance += conformed ? 1 : 0;
      tally.properties += propertied ? 1 : 0;
      if (!conformed || !propertied) missed++;
      tally.seconds.push((performance.now() - started) / 1000);
      console.log(
        `${race.name} run ${run}/${RUNS}: conformance ${conformed ? 'caught' : 'MISSED'}, properties ${propertied ? 'caught' : `MISSED (seed ${seed})`}`,
      );
    }
    lines.push(...report(race, tally));
  }
} finally {
  for (const h of hogs) h.kill();
}
console.log(`\nbeside ${HOGS} CPU-bound processes, ${RUNS} runs per defect:\n${lines.join('\n')}`);
process.exitCode = missed > 0 ? 1 : 0;
