// A distributed run end to end, as k6-operator runs one: a shared plan
// (`fleetproof load --write-plan`), two parts on it with the segments 0:1/2
// and 1/2:1 (`--plan --segment`), side by side, and `fleetproof report
// --merge --plan`, which audits the target once over every part's routes.
// Only the first part seeds; the arrival-rate phase's iterations are split
// between the parts, the single-VU phase runs in the first. A route the
// run's tenant still holds at the merge fails the audit; settled, the merge
// passes and retires the run. On the Node runner always, on k6 when it is on
// PATH. Only the seed, the concurrent routing and the sustained routing
// phases run.
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../../cli/main.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { LoadReport } from '../runner/load-report.ts';
import type { MergedReport } from '../merge/merge-runs.ts';
import type { RunHistogramsJson } from '../histograms/run-histograms.ts';
import { parseJournal } from '../runner/journal.ts';
import { NODE_RUNNER_VERSION } from '../runner/node-engine/engine.ts';
import { tenantId, type RunPlan } from '../runner/run-plan.ts';
import { startTarget } from './in-process-target.ts';
import { k6ForTests } from './k6-for-tests.ts';

const k6 = k6ForTests();

const countOf = (h: RunHistogramsJson, metric: string, phase?: string) =>
  (h.metrics[metric]?.series ?? []).filter((s) => phase === undefined || s.tags['phase'] === phase).reduce((n, s) => n + s.count, 0);

for (const engine of ['node', 'k6'] as const) {
  test(
    `a run split into two segments on ${engine} merges into one verdict, audited once over every part`,
    { skip: engine === 'k6' ? k6.skip : false },
    async (t) => {
      if (engine === 'k6') k6.version();
      const target = await startTarget(new MemoryStore());
      t.after(() => target.close());
      const planFile = join(target.dir, 'run-plan.json');
      const cli = (...args: string[]) => main(args);
      assert.equal(
        await cli(
          'load',
          '--write-plan',
          planFile,
          '--target',
          target.url,
          '--key',
          target.keyPath,
          '--profile',
          'smoke',
          '--phases',
          'concurrent_routes,sustained_routes',
        ),
        0,
      );
      assert.equal((await stat(planFile)).mode & 0o077, 0, 'the plan holds bearer tokens: private to its owner');
      const plan = JSON.parse(await readFile(planFile, 'utf8')) as RunPlan;
      assert.equal(await cli('load', '--plan', planFile, '--target', target.url), 2, 'the plan fixes the target');
      for (const fixed of [['--profile', 'sustained'], ['--key', target.keyPath], ['--keep-data']])
        assert.equal(await cli('load', '--plan', planFile, '--segment', '0:1/2', ...fixed), 2, `the plan fixes ${fixed[0]}`);
      assert.equal(
        await cli('load', '--target', target.url, '--key', target.keyPath, '--segment', '0:1/2'),
        2,
        'a segment is a share of a planned run',
      );
      assert.equal(await cli('load', '--plan', planFile, '--segment', '0:2/3'), 2, 'not one of N equal parts, and no sequence given');

      const segments = ['0:1/2', '1/2:1'];
      const dirs = segments.map((_, k) => join(target.dir, `part-${k}`));
      const codes = await Promise.all(
        segments.map((s, k) => cli('load', '--plan', planFile, '--segment', s, '--engine', engine, '--out', dirs[k]!, '--quiet')),
      );
      assert.deepEqual(codes, [0, 0]);
      const parts = await Promise.all(dirs.map(async (d) => JSON.parse(await readFile(join(d, 'summary.json'), 'utf8')) as LoadReport));
      const histograms = await Promise.all(
        dirs.map(async (d) => JSON.parse(await readFile(join(d, 'histograms.json'), 'utf8')) as RunHistogramsJson),
      );
      for (const [k, h] of histograms.entries()) {
        assert.equal(parts[k]!.audit, null, 'a part leaves the audit to the merge');
        assert.equal(h.run.execution_segment, segments[k]);
        assert.equal(h.run.execution_segment_sequence, '0,1/2,1');
        assert.deepEqual(
          h.run.engine,
          engine === 'k6' ? { name: 'k6', version: k6.version() } : { name: 'node-runner', version: NODE_RUNNER_VERSION },
        );
        assert.ok(Date.parse(h.run.started_at!) < Date.parse(h.run.finished_at!), 'the part records when it ran');
      }
      assert.deepEqual(
        histograms.map((h) => countOf(h, 'fleetproof_seed_duration')),
        [1, 0],
        'only the part whose segment starts at 0 seeds',
      );
      assert.ok(
        countOf(histograms[0]!, 'http_reqs', 'concurrent_routes') > 0 && countOf(histograms[1]!, 'http_reqs', 'concurrent_routes') === 0,
        'a single-VU phase runs in one part',
      );
      const sustained = histograms.map((h) => countOf(h, 'iterations', 'sustained_routes'));
      assert.ok(
        sustained.every((n) => n > 0),
        `both parts ran arrivals of the sustained phase: ${sustained.join(', ')}`,
      );

      // A route of the run's first routed tenant, resolved and still held.
      const journalText = await readFile(join(dirs[0]!, 'journal.ndjson'), 'utf8');
      const seen = [...parseJournal(journalText).routes.values()][0]!;
      const token = plan.tokens.tenants[plan.tokens.tenants.findIndex((_, k) => tenantId(plan.run_id, k + 1) === seen.tenant_id)]!;
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(new URL(path, target.url), {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, body: (await res.json()) as { assignment: { capability_id: string } } };
      };
      const capability = (await call('GET', `/v1/routes/${seen.action_id}`)).body.assignment.capability_id;
      const held = await call('POST', '/v1/routes', { action_id: `${seen.action_id}-held`, capability_id: capability });
      assert.equal(held.status, 200);

      const otherPlan = join(target.dir, 'other-plan.json');
      assert.equal(await cli('load', '--write-plan', otherPlan, '--target', target.url, '--key', target.keyPath, '--profile', 'smoke'), 0);
      assert.equal(
        await cli('report', '--merge', ...dirs, '--plan', otherPlan, '--out', join(target.dir, 'refused')),
        2,
        'the plan of another run',
      );
      assert.equal(
        await cli('report', '--merge', dirs[1]!, '--plan', planFile, '--out', join(target.dir, 'half')),
        2,
        'the first half is missing',
      );

      const merged = async (out: string) => JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as MergedReport;
      const first = join(target.dir, 'merged-held');
      assert.equal(await cli('report', '--merge', ...dirs, '--plan', planFile, '--keep-data', '--out', first), 1);
      const atBaseline = (await merged(first)).audit!.invariants.find((i) => i.id === 'replicas_at_baseline')!;
      assert.equal(atBaseline.ok, false, 'the held route keeps a unit of its replica');

      assert.equal(
        (await call('POST', `/v1/routes/${seen.action_id}-held/settlement`, { assignment: held.body.assignment, outcome: 'completed' }))
          .status,
        200,
      );
      const second = join(target.dir, 'merged');
      assert.equal(await cli('report', '--merge', ...dirs, '--plan', planFile, '--out', second), 0);
      const report = await merged(second);
      assert.equal(report.verdict, 'pass', report.reasons.join('\n'));
      assert.equal(report.merge.coverage, '1');
      assert.deepEqual(
        report.merge.parts.map((p) => p.execution_segment),
        segments,
      );
      assert.equal(report.routes_seen, parts[0]!.routes_seen + parts[1]!.routes_seen, 'the merge joined both journals; no route id twice');
      assert.equal(report.audit!.invariants.find((i) => i.id === 'routes_pinned')!.checked, report.routes_seen);
      assert.ok(
        report.audit!.invariants.every((i) => i.ok && i.checked > 0),
        'every invariant was checked on something',
      );
      assert.ok(report.retirement && report.retirement.types_disabled > 0, 'the merge retired the run');
      assert.ok(report.merge.notes.includes('audited after the merge, over the routes of every part'));
    },
  );
}
