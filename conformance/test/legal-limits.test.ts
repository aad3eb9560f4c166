// The whole conformance suite against the reference started with other legal
// limits: a correct registry qualifies whatever legal limits it declares, and
// whatever legal head limits its HTTP server keeps ([wire-head-limits]).
// Every case passes, or ends `skip` because the declared limits leave its
// clause nothing to provoke, with that reason, listed in every report; none
// fails or errors.
import { writeConformanceReports } from '../../reports/conformance/write.ts';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { NOT_PROVOCABLE } from '../harness/failure.ts';
import { runConformance } from '../runner/run.ts';
import { describeLimits, LEGAL_LIMIT_SETTINGS, SMALLEST_LEGAL_LIMITS, SMALLEST_WIRE_LIMITS } from './legal-limits.ts';
import type { RegistryLimits } from '../../contract/records.ts';
import { startReferenceTarget } from './reference-target.ts';

const out = await mkdtemp(join(tmpdir(), 'fleetproof-legal-limits-'));
after(() => rm(out, { recursive: true, force: true }));

/** Each run: registry limits, and the HTTP server's head limits where the run changes them. */
const RUNS: Array<{ limits: Partial<RegistryLimits>; connections?: typeof SMALLEST_WIRE_LIMITS }> = [
  ...[...LEGAL_LIMIT_SETTINGS, SMALLEST_LEGAL_LIMITS].map((limits) => ({ limits })),
  { limits: {}, connections: SMALLEST_WIRE_LIMITS },
];

// Each run waits out the suite's slow cases (tokens past their exp, leases
// past their expiry) far more than it computes: side by side, the file takes
// about as long as one run.
describe('conformance against the reference with other legal limits', { concurrency: true }, () => {
  for (const [i, { limits, connections }] of RUNS.entries()) {
    it(`qualifies with ${connections ? `head limits ${JSON.stringify(connections)}` : describeLimits(limits)}`, async () => {
      const target = await startReferenceTarget({ limits, silent: true, ...(connections ? { connections } : {}) });
      try {
        const dir = join(out, String(i));
        const outcome = await runConformance({
          config: target.config({ out: dir }),
          signingKey: target.key,
          writeReports: writeConformanceReports,
        });
        const result = outcome.result;
        assert.ok(result, outcome.error);
        assert.deepEqual(
          result.target.version.limits,
          { ...result.target.version.limits, ...limits },
          'the target declares the limits it was started with',
        );
        const unexplained = result.cases.filter(
          (c) => c.status !== 'pass' && !(c.status === 'skip' && c.message?.startsWith(NOT_PROVOCABLE)),
        );
        assert.deepEqual(
          unexplained.map((c) => `${c.status} ${c.id}: ${c.message}`),
          [],
        );
        assert.equal(result.verdict, 'qualified');
        assert.equal(outcome.exitCode, 0);
        const skipped = result.cases.filter((c) => c.status === 'skip');
        for (const report of ['report.md', 'report.html', 'junit.xml']) {
          const text = await readFile(join(dir, report), 'utf8');
          for (const c of skipped)
            assert.ok(text.includes(c.id) && text.includes(NOT_PROVOCABLE), `${report} lists the skip of ${c.id} with its reason`);
        }
      } finally {
        await target.close();
      }
    });
  }
});
