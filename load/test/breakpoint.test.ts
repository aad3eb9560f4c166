// The breakpoint profile against a registry that starts failing routes past
// a known count: the ramp (20, 40, … 300 routes/s, a second each) holds its
// first rate, breaks at the second when errors appear, stops there instead
// of climbing to its last rate, and still runs the audit; the report gives
// the highest rate at which every SLO held, with latency and errors per
// rate. The failing registry is the reference behind a proxy that answers
// POST /v1/routes with 500 once 30 resolves have gone through: fewer than
// the first rate's 20 plus the second's 20, more than the first's alone. The
// proxy's log gives the order of events: the first injected error, the last
// resolve of the ramp, then the audit's reads. On the Node runner, and on k6
// when it is on PATH.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { runLoad } from '../runner/run-load.ts';
import { startTarget } from './in-process-target.ts';
import { k6ForTests } from './k6-for-tests.ts';

const RESOLVES_BEFORE_FAILING = 30;

interface Logged {
  request: string;
  injected: boolean;
}

async function failingProxy(upstream: string): Promise<{ url: string; log: Logged[]; close(): Promise<void> }> {
  const target = new URL(upstream);
  let resolves = 0;
  const log: Logged[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const injected = req.method === 'POST' && req.url === '/v1/routes' && ++resolves > RESOLVES_BEFORE_FAILING;
    log.push({ request: `${req.method} ${req.url}`, injected });
    if (injected) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'INTERNAL', message: 'injected' } }));
      return;
    }
    const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const k6 = k6ForTests();

for (const engine of ['node', 'k6'] as const) {
  test(
    `the breakpoint ramp on ${engine} stops where errors appear, reports the highest rate that held, and audits`,
    { skip: engine === 'k6' ? k6.skip : false },
    async (t) => {
      if (engine === 'k6') k6.version();
      const target = await startTarget(new MemoryStore());
      const proxy = await failingProxy(target.url);
      t.after(async () => {
        await proxy.close();
        await target.close();
      });
      const outcome = await runLoad({
        target: proxy.url,
        keyPath: target.keyPath,
        profile: 'breakpoint',
        engine,
        writeReport: writeLoadReport,
        sets: [
          'tenants=4',
          'connector_types=4',
          'capabilities=8',
          'capabilities_per_version=4',
          'instances=16',
          'bindings_per_instance=2',
          'breakpoint_routes.routing_tenants=4',
          'breakpoint_routes.start_rate=20',
          'breakpoint_routes.rate_step=20',
          'breakpoint_routes.max_rate=300',
          'breakpoint_routes.step_s=1',
          // Every VU from the start: an arrival finding all VUs busy is dropped (as in k6), and a step that dropped
          // arrivals did not hold, which on a loaded machine happened at the first rate with four.
          'breakpoint_routes.pre_allocated_vus=40',
          'breakpoint_routes.max_vus=40',
          'threshold.route_p99=p(99)<=60000',
          'threshold.settle_p99=p(99)<=60000',
          'threshold.dropped_iterations=count<=100000',
        ],
        outDir: join(target.dir, 'report'),
        quiet: true,
      });
      assert.ok(outcome.report, outcome.message);
      const report = outcome.report;
      const b = report.breakpoint!;
      // Latency and dropped arrivals are judged at bounds no loaded machine reaches, so
      // the errors that begin with the 31st resolve, in the 40/s step, are the break.
      assert.deepEqual(
        b.steps.slice(0, 2).map((s) => [s.rate, s.held]),
        [
          [20, true],
          [40, false],
        ],
        JSON.stringify(b.steps),
      );
      assert.equal(b.highest_held_rate, 20);
      assert.match(
        b.limit,
        /^It broke at 40\/s: [^]*errors other than CAPACITY_EXCEEDED \(count==0\)[^]* The ramp ended at [0-9]+\/s, before its last rate 300\/s\.$/,
      );
      assert.ok(b.steps[0]!.requests > 0 && b.steps[0]!.p99_ms !== null && b.steps[0]!.error_rate === 0);
      assert.ok(b.steps[1]!.error_rate > 0, 'the curve shows the errors at the rate that broke');
      assert.deepEqual(report.reasons, [], 'a threshold breaking is the ramp’s answer, not a failure');
      assert.equal(outcome.exitCode, 0);
      assert.match(await readFile(join(outcome.outDir!, 'report.md'), 'utf8'), /Every SLO held up to \*\*20 routes\/s\*\*/);
      // Break detected, then the ramp ended before its last rate, then the audit read the target.
      assert.equal(b.max_rate, 300);
      assert.ok(b.stopped_early && b.steps.at(-1)!.rate < b.max_rate, `the ramp stopped: ${b.steps.map((s) => s.rate).join(', ')}`);
      const firstInjected = proxy.log.findIndex((l) => l.injected);
      const lastResolve = proxy.log.findLastIndex((l) => l.request === 'POST /v1/routes');
      const auditReads = proxy.log.map((l, i) => ({ ...l, i })).filter((l) => /^GET \/v1\/(replicas|admission-counters)\//.test(l.request));
      assert.ok(firstInjected >= 0 && firstInjected <= lastResolve, 'the break came from the ramp');
      assert.ok(auditReads.length > 0 && auditReads.every((l) => l.i > lastResolve), 'the audit read the target after the ramp ended');
      assert.ok(
        report.audit!.invariants.every((i) => i.ok && i.checked > 0),
        `the audit ran over the routes the ramp made, those the stop cut included: ${JSON.stringify(report.audit!.invariants.filter((i) => !i.ok))}`,
      );
      const html = await readFile(join(outcome.outDir!, 'report.html'), 'utf8');
      assert.match(
        html,
        /<h2>Breakpoint<\/h2>[\s\S]*<figure class="chart" role="img" aria-label="resolve latency and error share against the arrival rate/,
      );
    },
  );
}
