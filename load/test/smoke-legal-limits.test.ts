// The smoke profile against the reference declaring other legal limits: the
// run fits its dataset and phases to the limits the target declares, says so
// among the report's overrides, and passes — a correct registry qualifies
// whatever legal limits it declares.
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RegistryLimits } from '../../contract/records.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { runLoad } from '../runner/run-load.ts';
import { startTarget } from './in-process-target.ts';

const SETTINGS: ReadonlyArray<{ limits: Partial<RegistryLimits>; fitted: RegExp }> = [
  { limits: { max_capabilities_per_version: 8 }, fitted: /^dataset\.capabilities_per_version=8 / },
  { limits: { max_page_size: 1, max_expiry_batch: 1, max_body_bytes: 65_536 }, fitted: /^lease_churn\.batch=1 / },
];

// A smoke run waits out its phases' start times far more than it computes: the two run side by side.
describe('the smoke profile against the reference with other legal limits', { concurrency: true }, () => {
  for (const { limits, fitted } of SETTINGS) {
    it(`passes with ${JSON.stringify(limits)}, the fit named in the report`, async (t) => {
      const target = await startTarget(new MemoryStore({ limits }));
      t.after(() => target.close());
      const outcome = await runLoad({
        target: target.url,
        keyPath: target.keyPath,
        profile: 'smoke',
        engine: 'node',
        outDir: join(target.dir, 'report'),
        quiet: true,
        writeReport: writeLoadReport,
      });
      const report = outcome.report!;
      assert.deepEqual(report.reasons, []);
      assert.equal(outcome.exitCode, 0);
      assert.ok(
        report.fitted.some((o) => fitted.test(o)),
        `the report names the fit: ${report.fitted.join('; ')}`,
      );
      assert.deepEqual(report.overrides, [], 'fitting to declared limits is no override: the run still qualifies');
      const markdown = await readFile(join(outcome.outDir!, 'report.md'), 'utf8');
      assert.match(markdown, /Fitted to the limits the target declares/);
      assert.ok(
        report.audit!.invariants.every((i) => i.ok),
        'every audited invariant holds',
      );
      assert.equal(report.retirement!.rejected, 0);
    });
  }
});
