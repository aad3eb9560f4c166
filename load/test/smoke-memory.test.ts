// The smoke profile end to end against the reference on the memory store,
// on the Node runner and, when it is on PATH, on real k6: every threshold,
// phase check and audited invariant holds.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { NODE_RUNNER_VERSION } from '../runner/node-engine/engine.ts';
import { assertSmokeQualified, runSmokeToAVerdict, startTarget } from './in-process-target.ts';
import { k6ForTests } from './k6-for-tests.ts';

const k6 = k6ForTests();

// A smoke run waits out its phases' start times far more than it computes: the two engines run side by side.
describe('the smoke profile on the memory store', { concurrency: true }, () => {
  for (const engine of ['node', 'k6'] as const) {
    test(
      `the smoke profile passes on ${engine} against the reference on the memory store, audit included`,
      { skip: engine === 'k6' ? k6.skip : false },
      async (t) => {
        if (engine === 'k6') k6.version();
        const target = await startTarget(new MemoryStore());
        t.after(() => target.close());
        const outcome = await runSmokeToAVerdict(target, { engine });
        assertSmokeQualified(outcome);
        const report = outcome.report!;
        assert.deepEqual(
          report.environment.engine,
          engine === 'k6' ? { name: 'k6', version: k6.version() } : { name: 'node-runner', version: NODE_RUNNER_VERSION },
        );
        assert.ok(report.routes_seen > 100);
        // After the audit the run retires its records: every type disabled, every replica still up taken offline.
        assert.deepEqual(report.retirement, { types_disabled: 8, replicas_offline: report.retirement!.replicas_offline, rejected: 0 });
        assert.ok(report.retirement!.replicas_offline > 0);
        const html = await readFile(join(outcome.outDir!, 'report.html'), 'utf8');
        assert.match(html, /<div class="word">QUALIFIED<\/div>/);
        assert.equal(
          (html.match(/<figure class="chart"/g) ?? []).length,
          5,
          'thresholds, latency per phase, latency over time, requests and failures over time, routes',
        );
        // The run over time and the end-of-test table come from the engine's raw output.
        assert.ok(report.over_time!.buckets.reduce((n, b) => n + b.requests, 0) > 100, 'requests over time');
        assert.ok(report.metrics.some((m) => m.metric === 'http_req_duration' && m.count > 100 && m.p99 !== null));
        assert.match(
          await readFile(join(outcome.outDir!, 'junit.xml'), 'utf8'),
          /<testcase name="checks" classname="fleetproof\.load\.threshold"/,
        );
        assert.doesNotMatch(html, /<script|<link|src=/, 'the page needs nothing from the network');
      },
    );
  }
});
