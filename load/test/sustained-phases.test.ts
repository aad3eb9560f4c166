// Every phase of the sustained profile makes requests, on the Node runner
// and, when it is on PATH, on real k6; lease churn keeps churning after its
// pool is used up. The churn pool here holds 4 replicas (the tenants 3 and 4
// of 4, two routing) in slices of 2, so every iteration after the second
// finds the pool already churned once.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { runLoad } from '../runner/run-load.ts';
import { startTarget } from './in-process-target.ts';
import { k6ForTests } from './k6-for-tests.ts';

const SETS = [
  'tenants=4',
  'connector_types=4',
  'capabilities=8',
  'capabilities_per_version=4',
  'instances=8',
  'bindings_per_instance=2',
  'sustained_routes.routing_tenants=2',
  'sustained_routes.rate=20',
  'sustained_routes.pre_allocated_vus=4',
  'sustained_routes.max_vus=8',
  'sustained_catalog.rate=5',
  'heartbeats.rate=5',
  'replica_monitor.rate=2',
  'sustained_lease_churn.every_s=1',
  'sustained_lease_churn.batch=2',
];
const CHURN_SLICES = 2;

/** The journal's lease churn entries: one per iteration, written before its requests. */
async function churnIterations(outDir: string): Promise<string[][]> {
  const lines = (await readFile(join(outDir, 'journal.ndjson'), 'utf8')).split('\n');
  const facts = lines
    .filter((l) => l.includes('{'))
    .map((l) => JSON.parse(l.slice(l.indexOf('{'))) as { k: string; phase?: string; ids?: string[] });
  return facts.filter((f) => f.k === 'offline' && f.phase === 'sustained_lease_churn').map((f) => f.ids!);
}

const k6 = k6ForTests();

for (const engine of ['node', 'k6'] as const) {
  test(
    `every phase of the sustained profile makes requests on ${engine}, lease churn included`,
    { skip: engine === 'k6' ? k6.skip : false },
    async (t) => {
      if (engine === 'k6') k6.version();
      const target = await startTarget(new MemoryStore());
      t.after(() => target.close());
      const outcome = await runLoad({
        target: target.url,
        keyPath: target.keyPath,
        profile: 'sustained',
        engine,
        sets: SETS,
        durationS: 6,
        outDir: join(target.dir, 'report'),
        quiet: true,
        writeReport: writeLoadReport,
      });
      const report = outcome.report;
      assert.ok(report, outcome.message);
      assert.deepEqual(
        report.phases.map((p) => p.name),
        ['seed', 'sustained_routes', 'sustained_catalog', 'heartbeats', 'sustained_lease_churn', 'replica_monitor'],
      );
      for (const p of report.phases) {
        assert.ok(p.requests > 0, `${p.name} made requests`);
        assert.ok(p.checks.passes > 0 && p.checks.fails === 0, `${p.name} ran its checks and they held: ${JSON.stringify(p.checks)}`);
      }
      assert.ok(!report.reasons.some((r) => /made no requests/.test(r)), report.reasons.join('; '));
      const churned = await churnIterations(outcome.outDir!);
      assert.ok(churned.length > CHURN_SLICES, `lease churn ran past its pool: ${churned.length} iterations`);
      assert.ok(
        churned.every((ids) => ids.length === 2),
        'every iteration churned a full slice',
      );
      const churn = report.phases.find((p) => p.name === 'sustained_lease_churn')!;
      assert.equal(churn.checks.passes, 2 * churned.length, 'every iteration sent its reports and read its replicas back');
      assert.ok(
        report.audit!.invariants.every((i) => i.ok),
        JSON.stringify(report.audit!.invariants.filter((i) => !i.ok)),
      );
    },
  );
}
