// The whole conformance suite against the reference started with other legal
// limits: a correct registry qualifies whatever legal limits it declares.
// Every case passes, or ends `skip` because the declared limits leave its
// clause nothing to provoke, with that reason; none fails or errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOT_PROVOCABLE } from '../harness/failure.ts';
import { runConformance } from '../runner/run.ts';
import { describeLimits, LEGAL_LIMIT_SETTINGS } from './legal-limits.ts';
import { startReferenceTarget } from './reference-target.ts';

describe('conformance against the reference with other legal limits', () => {
  for (const limits of LEGAL_LIMIT_SETTINGS) {
    it(`qualifies with ${describeLimits(limits)}`, async () => {
      const target = await startReferenceTarget({ limits, silent: true });
      try {
        const outcome = await runConformance({ config: target.config(), signingKey: target.key, writeReports: false });
        const result = outcome.result;
        assert.ok(result, outcome.error);
        assert.deepEqual(result.target.version.limits, { ...result.target.version.limits, ...limits }, 'the target declares the limits it was started with');
        const unexplained = result.cases.filter((c) => c.status !== 'pass' && !(c.status === 'skip' && c.message?.startsWith(NOT_PROVOCABLE)));
        assert.deepEqual(unexplained.map((c) => `${c.status} ${c.id}: ${c.message}`), []);
        assert.equal(result.verdict, 'qualified');
        assert.equal(outcome.exitCode, 0);
      } finally {
        await target.close();
      }
    });
  }
});
