// A distributed run whose parts did not run side by side, as happens when a
// runner pod of a k6-operator run starts late or restarts: the two parts of
// a smoke plan run one after the other, and again with the second started
// late. The health reports and ids each part writes never collide with the
// other's, so the correct reference answers every request as expected, and
// `report --merge --plan` says when the parts ran apart without ever
// declaring the reference non-conformant. On the Node runner always, on k6
// when it is on PATH.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../../cli/main.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { MergedReport } from '../merge/merge-runs.ts';
import { startTarget } from './in-process-target.ts';
import { k6ForTests } from './k6-for-tests.ts';

const k6 = k6ForTests();
const PHASES = 'sustained_routes,heartbeats,sustained_lease_churn,replica_monitor';
const SEGMENTS = ['0:1/2', '1/2:1'];

for (const engine of ['node', 'k6'] as const) {
  test(
    `parts of a plan run apart on ${engine} never fail the correct reference, and the merge says they ran apart`,
    { skip: engine === 'k6' ? k6.skip : false },
    async (t) => {
      if (engine === 'k6') k6.version();
      const target = await startTarget(new MemoryStore());
      t.after(() => target.close());
      const cli = (...args: string[]) => main(args);

      /** Runs the plan's two parts, the second `lateMs` after the first started (null: after the first ended), and merges them. */
      async function run(name: string, lateMs: number | null) {
        const plan = join(target.dir, `${name}-plan.json`);
        const args = ['--target', target.url, '--key', target.keyPath, '--profile', 'smoke', '--phases', PHASES];
        assert.equal(await cli('load', '--write-plan', plan, ...args), 0);
        const dirs = SEGMENTS.map((_, k) => join(target.dir, `${name}-part-${k}`));
        const part = (k: number) =>
          cli('load', '--plan', plan, '--segment', SEGMENTS[k]!, '--engine', engine, '--out', dirs[k]!, '--quiet');
        const first = part(0);
        const codes = lateMs === null ? [await first, await part(1)] : await Promise.all([first, delay(lateMs).then(() => part(1))]);
        assert.deepEqual(codes, [0, 0], `${name}: each part alone judges the reference correct`);
        const out = join(target.dir, `${name}-merged`);
        const code = await cli('report', '--merge', ...dirs, '--plan', plan, '--out', out);
        const report = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as MergedReport;
        assert.equal(code, 0, `${name}: ${report.reasons.join('\n')}`);
        assert.equal(report.verdict, 'pass');
        const heartbeats = report.phases.find((p) => p.name === 'heartbeats')!;
        assert.ok(heartbeats.checks.passes > 0 && heartbeats.checks.fails === 0, `${name}: ${JSON.stringify(heartbeats.checks)}`);
        return report.merge;
      }

      const oneAfterOther = await run('sequential', null);
      assert.equal(oneAfterOther.overlap.as_scheduled, false, JSON.stringify(oneAfterOther.overlap));
      assert.ok(
        oneAfterOther.notes.some((n) => n.startsWith('the parts did not run side by side as the plan schedules them')),
        oneAfterOther.notes.join('\n'),
      );

      // Whether a late part began its load apart depends on how long the first part's seed took; the merge says which.
      const late = await run('late', 6000);
      const { as_scheduled, spread_ms, tolerance_ms } = late.overlap;
      assert.equal(as_scheduled, spread_ms! <= tolerance_ms, JSON.stringify(late.overlap));
      assert.equal(
        late.notes.some((n) => n.startsWith('the parts did not run side by side')),
        !as_scheduled,
      );
    },
  );
}
