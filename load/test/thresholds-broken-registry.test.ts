// The smoke profile's thresholds fail a deliberately broken registry, on any
// machine: with reselect-on-retry a retried action gets a fresh assignment,
// so the retry phase's checks fail, and with them the profile's checks
// threshold. Only the seed and the two routing phases run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDefectiveStore } from '../../reference/defects/defective.ts';
import { runSmoke, startTarget } from './in-process-target.ts';

test('a registry that reselects on retry fails the checks threshold', async (t) => {
  const target = await startTarget(await openDefectiveStore('reselect-on-retry', 'memory'));
  t.after(() => target.close());
  const outcome = await runSmoke(target, { phases: ['concurrent_routes', 'retry_rotation'] });
  assert.equal(outcome.exitCode, 1);
  const report = outcome.report!;
  const checks = report.thresholds.find((x) => x.id === 'checks')!;
  assert.equal(checks.ok, false, 'the checks threshold failed');
  assert.ok(checks.value !== null && checks.value < 1, `checks rate ${checks.value}`);
  assert.equal(report.thresholds.find((x) => x.id === 'unexpected_responses')!.ok, true, 'the registry answered as the contract allows');
  const retry = report.phases.find((p) => p.name === 'retry_rotation')!;
  assert.equal(retry.checks_ok, false);
  assert.ok(report.phases.find((p) => p.name === 'concurrent_routes')!.checks_ok, 'first routes are still correct');
  assert.ok(report.reasons.some((r) => r.startsWith('threshold checks of every phase')));
});
