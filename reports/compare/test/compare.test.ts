// `fleetproof report --compare A B` on synthetic runs: a latency change
// beyond the noise band is flagged and one within it is not; the band is the
// larger of 10 % and each run's spread between intervals, so a noisy run
// widens it; cases and suites that changed status are listed, worse first;
// differing case sets are said; the pages state the band and how it was
// computed; a folder without a result cannot be compared.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { caseSetOf } from '../../../client/provenance.ts';
import type { LoadReport } from '../../../load/runner/load-report.ts';
import type { TimeBucket } from '../../../load/runner/time-series.ts';
import { main } from '../../../cli/main.ts';
import { sampleCertification, sampleConformance, sampleLoad, sampleProperties } from '../../test/sample-documents.ts';
import { compareRuns } from '../compare-runs.ts';
import { readRun } from '../read-run.ts';
import { BAND_RULE } from '../render-compare.ts';
import { writeComparison } from '../write-comparison.ts';

const root = await mkdtemp(join(tmpdir(), 'fleetproof-compare-'));
after(() => rm(root, { recursive: true, force: true }));

/** A load run whose phases' p99 over their intervals takes the values given (each interval 100 requests), with the given p99 over each phase. */
function loadRun(runId: string, intervalP99: number[], phaseP99: Record<string, number>): LoadReport {
  const base = sampleLoad();
  const buckets: TimeBucket[] = intervalP99.map((p99, i) => ({
    t_s: i,
    requests: 100,
    failed: 0,
    p50_ms: p99 / 4,
    p95_ms: p99 / 2,
    p99_ms: p99,
  }));
  return {
    ...base,
    run_id: runId,
    verdict: 'pass',
    reasons: [],
    over_time: {
      bucket_ms: 1000,
      started_at: base.started_at,
      buckets,
      by_phase: Object.fromEntries(base.phases.map((p) => [p.name, buckets.map(({ failed: _failed, ...b }) => b)])),
    },
    phases: base.phases.map((p) => ({ ...p, latency_ms: { count: 1000, med: 2, 'p(95)': 5, 'p(99)': phaseP99[p.name] ?? 10, max: 100 } })),
  };
}

async function runDir(name: string, file: string, doc: object): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, file), JSON.stringify(doc));
  return dir;
}

// Quiet run: p99 between intervals 28..32, spread (Q3 − Q1) / median = (31 − 29.75) / 30 = 4.17 %.
const QUIET = [30, 31, 29, 30, 32, 28, 30, 31];
// Noisy run: 20..60, spread (42.5 − 27.5) / 35 = 42.86 %.
const NOISY = [20, 30, 40, 50, 60, 20, 30, 40];

describe('report --compare', () => {
  it('flags a latency rise beyond the band and not one within it; the band is the floor when both runs are quiet', async () => {
    const a = await readRun(
      await runDir('quiet-a', 'summary.json', loadRun('fpa', QUIET, { seed: 10, version_rollout: 10, concurrent_routes: 10 })),
    );
    const b = await readRun(
      await runDir('quiet-b', 'summary.json', loadRun('fpb', QUIET, { seed: 15, version_rollout: 10.5, concurrent_routes: 8 })),
    );
    const c = compareRuns(a, b);
    const flag = (phase: string) => c.latency!.find((r) => r.phase === phase && r.percentile === 'p99')!;
    assert.equal(flag('seed').band_pct, 10, 'the floor: both spreads are below it');
    assert.ok(Math.abs(flag('seed').spread_a_pct! - (1.25 / 30) * 100) < 1e-9, `spread of A ${flag('seed').spread_a_pct}`);
    assert.deepEqual([flag('seed').flag, flag('seed').delta_pct], ['regression', 50]);
    assert.equal(flag('version_rollout').flag, 'within band');
    assert.equal(flag('concurrent_routes').flag, 'improvement');
    assert.equal(c.regressions, 1);
  });

  it('widens the band to a noisy run’s spread, so the same rise is within it', async () => {
    const a = await readRun(await runDir('noisy-a', 'summary.json', loadRun('fpc', NOISY, { seed: 10 })));
    // +40 %: beyond the floor, within the noisy run's 42.9 %.
    const b = await readRun(await runDir('noisy-b', 'summary.json', loadRun('fpd', QUIET, { seed: 14 })));
    const c = compareRuns(a, b);
    const seed = c.latency!.find((r) => r.phase === 'seed' && r.percentile === 'p99')!;
    assert.ok(Math.abs(seed.band_pct - (15 / 35) * 100) < 1e-9, `band ${seed.band_pct}`);
    assert.equal(seed.flag, 'within band');
    assert.equal(c.regressions, 0);
  });

  it('leaves out a phase with too few requests for its percentiles to mean much, and says so', async () => {
    const few = loadRun('fpk', QUIET, { seed: 30 });
    few.phases[0] = { ...few.phases[0]!, requests: 50 };
    const c = compareRuns(
      await readRun(await runDir('few-a', 'summary.json', loadRun('fpj', QUIET, { seed: 10 }))),
      await readRun(await runDir('few-b', 'summary.json', few)),
    );
    assert.equal(
      c.latency!.some((r) => r.phase === 'seed'),
      false,
    );
    assert.match(c.notes.join('\n'), /Not compared, fewer than 100 requests in a run: seed/);
  });

  it('lists cases and suites that changed status, worse first, and says when the case sets differ', async () => {
    const before = sampleConformance();
    const passing = { ...before, verdict: 'qualified' as const, cases: before.cases.filter((x) => x.status === 'pass') };
    const after = { ...before, cases: [...before.cases.filter((x) => x.id !== passing.cases[0]!.id)] };
    after.cases[0] = { ...after.cases[0]!, status: 'fail' };
    passing.case_set = caseSetOf(passing.cases.map((x) => x.id));
    after.case_set = caseSetOf(after.cases.map((x) => x.id));
    const a = await readRun(await runDir('conform-a', 'result.json', passing));
    const b = await readRun(await runDir('conform-b', 'result.json', after));
    const c = compareRuns(a, b);
    assert.deepEqual(c.verdict, { a: 'qualified', b: 'non-conformant', of: 'run', direction: 'worse' });
    assert.equal(c.same_case_set, false);
    assert.match(c.notes.join('\n'), /different case sets/);
    assert.deepEqual(c.cases!.changed[0], { id: after.cases[0]!.id, a: 'pass', b: 'fail', direction: 'worse' });
    assert.deepEqual(c.cases!.removed, [passing.cases[0]!.id]);
    assert.ok(c.cases!.added.length > 100, 'the failing cases only B ran');

    const holds = { ...sampleProperties(), suites: sampleProperties().suites.map((s) => ({ ...s, status: 'pass' as const })) };
    const pa = await readRun(await runDir('props-a', 'result.json', sampleProperties()));
    const pb = await readRun(await runDir('props-b', 'result.json', holds));
    assert.deepEqual(compareRuns(pa, pb).properties, [{ id: 'idempotent-settlement', a: 'fail', b: 'pass', direction: 'better' }]);
  });

  it('writes the pages with the band and its rule, exits 99 on a regression (a threshold crossed, not a broken rule) and 0 without, 2 on a folder with no result', async () => {
    const a = await runDir('write-a', 'summary.json', loadRun('fpe', QUIET, { seed: 10 }));
    const b = await runDir('write-b', 'summary.json', loadRun('fpf', QUIET, { seed: 20 }));
    const out = join(root, 'out');
    const written = await writeComparison(a, b, out);
    assert.equal(written.exitCode, 99);
    const html = await readFile(join(out, 'report.html'), 'utf8');
    const md = await readFile(join(out, 'report.md'), 'utf8');
    for (const page of [html, md])
      assert.ok(page.includes(BAND_RULE.replace(/'/g, page === html ? '&#39;' : "'")), 'the band is stated with its rule');
    assert.match(md, /\| seed \| p99 \| 10 ms \| 20 ms \| \+100 % \| 4.17 % \| 4.17 % \| ±10 % \| regression \|/);
    assert.match(html, /regression/);
    assert.equal((await writeComparison(a, a, join(root, 'same'))).exitCode, 0);
    const empty = join(root, 'empty');
    await mkdir(empty);
    const refused = await writeComparison(a, empty);
    assert.equal(refused.exitCode, 2);
    assert.match(refused.message, /holds no fleetproof result/);
  });

  it('compares runs of different kinds on the result both hold, verdicts included, and refuses two with none in common', async () => {
    // A non-conformant certification whose load stage passed, and a load run that passed with the same latencies.
    const certification = await runDir('kinds-cert', 'result.json', sampleCertification(sampleConformance()));
    await runDir(join('kinds-cert', 'conformance'), 'result.json', sampleConformance());
    await runDir(join('kinds-cert', 'load'), 'summary.json', loadRun('fpk', QUIET, { seed: 10 }));
    const load = await runDir('kinds-load', 'summary.json', loadRun('fpl', QUIET, { seed: 10 }));
    const c = compareRuns(await readRun(load), await readRun(certification));
    assert.deepEqual(c.verdict, { a: 'qualified', b: 'qualified', of: 'load', direction: 'same' });
    assert.equal(c.regressions, 0, 'the certification failing its conformance stage is no regression of the load');
    assert.equal(c.same_case_set, true, 'the same profile: the load reports ran the same case set');
    assert.ok(!c.notes.some((n) => n.includes('different case sets')), c.notes.join('\n'));
    assert.ok(
      c.notes.some((n) => n.startsWith('A is a load run and B a certification run: only their load reports are compared')),
      c.notes.join('\n'),
    );
    assert.equal((await writeComparison(load, certification, join(root, 'kinds-out'))).exitCode, 0);
    assert.match(await readFile(join(root, 'kinds-out', 'report.md'), 'utf8'), /load: A QUALIFIED → B QUALIFIED/);
    const conformance = await runDir('kinds-conform', 'result.json', sampleConformance());
    const refused = await writeComparison(conformance, load, join(root, 'kinds-none'));
    assert.equal(refused.exitCode, 2);
    assert.match(refused.message, /is a conformance run and .* a load run: they hold no result of the same kind to compare/);
  });

  it('shows but does not judge latency measured by different engines', async () => {
    const k6 = loadRun('fpm', QUIET, { seed: 10 });
    const node = loadRun('fpn', QUIET, { seed: 20 });
    node.environment = { ...node.environment, engine: { name: 'node-runner', version: '0.6.0' } };
    k6.environment = { ...k6.environment, engine: { name: 'k6', version: 'v1.3.0' } };
    const c = compareRuns(
      await readRun(await runDir('engine-k6', 'summary.json', k6)),
      await readRun(await runDir('engine-node', 'summary.json', node)),
    );
    assert.equal(c.latency!.find((r) => r.phase === 'seed' && r.percentile === 'p99')?.flag, 'not judged');
    assert.equal(c.regressions, 0, 'a p99 twice as high on another engine is no regression');
    assert.ok(
      c.notes.some((n) => n.startsWith('The load ran on different engines (k6, node-runner)')),
      c.notes.join('\n'),
    );
    // Another version of the same engine is the same instrument: its changes are judged.
    node.environment = { ...node.environment, engine: { name: 'k6', version: 'v1.3.1' } };
    const upgraded = compareRuns(
      await readRun(await runDir('engine-k6-a', 'summary.json', k6)),
      await readRun(await runDir('engine-k6-b', 'summary.json', node)),
    );
    assert.equal(upgraded.latency!.find((r) => r.phase === 'seed' && r.percentile === 'p99')?.flag, 'regression');
  });

  it('runs as fleetproof report --compare A B: exit 0 without a regression, 99 with one', async () => {
    const a = await runDir('cli-a', 'summary.json', loadRun('fpg', QUIET, { seed: 10 }));
    const slower = await runDir('cli-b', 'summary.json', loadRun('fph', QUIET, { seed: 20 }));
    const out = join(root, 'cli-out');
    assert.equal(await main(['report', '--compare', a, a, '--report-dir', out]), 0);
    assert.match(await readFile(join(out, 'report.md'), 'utf8'), /no regression|0 regression/);
    assert.equal(await main(['report', '--compare', a, slower, '--report-dir', join(root, 'cli-slower')]), 99);
    assert.match(await readFile(join(root, 'cli-slower', 'report.md'), 'utf8'), /1 regression\(s\) flagged/);
    assert.equal(await main(['report', '--compare', a]), 2, 'one folder is a usage error');
  });
});
