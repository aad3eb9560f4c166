// The exit codes of a load run: 99 when only thresholds were crossed (k6's
// code), 1 when anything else went wrong with or without them, 2 when the run
// could not judge, 0 when all held.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadExitCode } from '../exit-code.ts';
import type { ThresholdRow } from '../load-report.ts';

const threshold = (ok: boolean): ThresholdRow => ({
  id: 'p99',
  label: 'route p99',
  metric: 'http_req_duration',
  expression: 'p(99)<50',
  unit: 'ms',
  source: null,
  ok,
  value: ok ? 10 : 61,
  limit: 50,
  margin: ok ? 40 : -11,
  margin_pct: null,
});

test('a crossed threshold alone exits 99, a defect exits 1, a clean run 0', () => {
  assert.equal(loadExitCode({ verdict: 'pass', reasons: [], thresholds: [threshold(true)] }), 0);
  assert.equal(
    loadExitCode({ verdict: 'fail', reasons: ['threshold route p99 failed with 61'], thresholds: [threshold(false), threshold(true)] }),
    99,
  );
  assert.equal(
    loadExitCode({
      verdict: 'fail',
      reasons: ['threshold route p99 failed with 61', 'audit: never over capacity: 2 violation(s)'],
      thresholds: [threshold(false)],
    }),
    1,
  );
  assert.equal(
    loadExitCode({ verdict: 'fail', reasons: ['phase retry_rotation: 3 of 40 checks failed'], thresholds: [threshold(true)] }),
    1,
  );
  assert.equal(loadExitCode({ verdict: 'fail', reasons: ['the audit did not run'], thresholds: [] }), 1);
});

test('a run that could not judge exits 2, whatever else it saw', () => {
  assert.equal(
    loadExitCode({ verdict: 'could-not-judge', reasons: ['threshold route p99 failed with 61'], thresholds: [threshold(false)] }),
    2,
  );
});

test('a threshold left unjudged is neither a crossed threshold nor a defect', () => {
  const unjudged = { ...threshold(false), id: 'p95', not_judged: 'not judged: the parts did not run side by side' };
  const reasons = ['threshold route p99 failed with 61', `threshold route p95: ${unjudged.not_judged}`];
  assert.equal(loadExitCode({ verdict: 'fail', reasons, thresholds: [threshold(false), unjudged] }), 99);
  assert.equal(
    loadExitCode({ verdict: 'fail', reasons: ['phase heartbeats: 5 of 21 checks failed', reasons[1]!], thresholds: [unjudged] }),
    1,
  );
});
