// `load --nemesis` judges: the reference, through a proxy that resets
// requests and drops answers, passes on its audit whatever its latencies
// did, and the report counts the faults, the indeterminate operations and
// the recovery times; a registry that overbooks still fails through the
// audit under the same faults.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SCHEDULE } from '../../certify/nemesis/nemesis.ts';
import type { NemesisRequest } from '../../certify/nemesis/open-nemesis.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { runLoadUnderFaults, type JudgedReport } from '../runner/judge-under-faults.ts';
import { startTarget, type InProcessTarget } from './in-process-target.ts';

const NEMESIS: NemesisRequest = {
  kinds: ['proxy'],
  schedule: { ...DEFAULT_SCHEDULE, faultMs: 400, quietMs: 50, maxDurationMs: 60_000 },
  seed: 9,
  proxyFaults: { latencyMs: [0, 30], resetBeforeForward: 0.1, loseResponse: 0.2 },
};

function underFaults(target: InProcessTarget, sets: string[]) {
  return runLoadUnderFaults(
    { target: target.url, keyPath: target.keyPath, profile: 'smoke', engine: 'node', outDir: join(target.dir, 'report'), quiet: true, writeReport: writeLoadReport, sets, phases: ['concurrent_routes'] },
    NEMESIS,
    () => {},
  );
}

test('the reference passes a load run under faults on its audit, and the report states the faults', async (t) => {
  const target = await startTarget(new MemoryStore());
  t.after(() => target.close());
  const outcome = await underFaults(target, ['concurrent_routes.routes=64']);
  const report = outcome.report as JudgedReport;
  assert.equal(outcome.exitCode, 0, report.reasons.join('; '));
  assert.ok(report.faults.faults > 0, 'no fault fell inside the load');
  assert.ok(report.faults.lost_after_forward + report.faults.reset_before_forward > 0, 'the proxy disturbed nothing');
  assert.ok(report.faults.recovery_ms_max !== null);
  assert.equal(typeof report.faults.indeterminate_ops, 'number');
  assert.ok(report.audit!.invariants.every((i) => i.ok && i.checked > 0));
});

test('a registry that overbooks fails the load run under faults through its audit', async (t) => {
  const target = await startTarget(new MemoryStore({ faults: new Set(['capacity-outside-lock']) }));
  t.after(() => target.close());
  const outcome = await underFaults(target, ['tenants=8', 'instances=8', 'replica_capacity=1', 'concurrent_routes.routes=64']);
  assert.equal(outcome.exitCode, 1, outcome.report?.reasons.join('; '));
  assert.ok(outcome.report!.reasons.some((r) => r.startsWith('audit: ')));
});
