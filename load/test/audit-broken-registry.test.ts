// A deliberately broken registry fails the run through the audit, whatever
// its latencies: with capacity-outside-lock, concurrent resolves decide on a
// replica, pause, and then all reserve it. The dataset gives tenant 1 a
// single replica of capacity 1 for the capability it routes, so every
// resolve decided within another's pause lands on it at once. Only the
// seed and the concurrent routing phase run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDefectiveStore } from '../../reference/defects/defective.ts';
import { OVERBOOKING_SETS, runSmoke, startTarget } from './in-process-target.ts';

test('a registry that overbooks replicas fails the audit', async (t) => {
  const target = await startTarget(await openDefectiveStore('capacity-outside-lock', 'memory'));
  t.after(() => target.close());
  const outcome = await runSmoke(target, {
    sets: OVERBOOKING_SETS,
    phases: ['concurrent_routes'],
  });
  assert.equal(outcome.exitCode, 1);
  const audit = outcome.report!.audit!;
  assert.equal(audit.ok, false);
  const overCapacity = audit.invariants.find((i) => i.id === 'never_over_capacity')!;
  assert.equal(overCapacity.ok, false, 'the audit saw a replica above its capacity');
  assert.match(overCapacity.examples[0]!, /active assignments over capacity 1/);
  assert.ok(outcome.report!.reasons.some((r) => r.startsWith('audit: no replica was ever seen')));
});
