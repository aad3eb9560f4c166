// A load run that fails for a reason that is not a verdict on the registry —
// the engine crashed, the dataset could not be seeded, the target started
// refusing the tokens it accepted at preflight — reads COULD NOT RUN
// and exits 2, in load's own report and in certify's stage status alike; an
// audit of records that were never seeded blames nothing.
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadStatus } from '../../certify/verdict.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { runLoad, type LoadRunOutcome } from '../runner/run-load.ts';
import { CRASHING_K6, startFront } from './front.ts';
import { startTarget, type InProcessTarget } from './in-process-target.ts';

async function assertCouldNotRun(outcome: LoadRunOutcome, cause: RegExp): Promise<void> {
  const report = outcome.report;
  assert.ok(report, outcome.message);
  assert.deepEqual([outcome.exitCode, report.verdict], [2, 'could-not-run'], report.reasons.join('\n'));
  assert.match(report.reasons[0]!, cause);
  assert.match(outcome.message, /^COULD NOT RUN: /);
  assert.match(await readFile(join(outcome.outDir!, 'report.md'), 'utf8'), /^# fleetproof scale qualification: COULD NOT RUN/);
  assert.equal(loadStatus(report), 'could-not-run', "certify's load stage says the same");
}

const smoke = (target: InProcessTarget, url: string, engine: 'node' | 'k6') =>
  runLoad({
    target: url,
    keyPath: target.keyPath,
    profile: 'smoke',
    phases: ['concurrent_routes'],
    engine,
    quiet: true,
    outDir: join(target.dir, `report-${engine}`),
    writeReport: writeLoadReport,
  });

describe('a load run that could not run', () => {
  it('when the engine crashes', async () => {
    const target = await startTarget(new MemoryStore());
    const bin = await mkdtemp(join(tmpdir(), 'fleetproof-fake-k6-'));
    const path = process.env['PATH'];
    try {
      await writeFile(join(bin, 'k6'), CRASHING_K6);
      await chmod(join(bin, 'k6'), 0o755);
      process.env['PATH'] = `${bin}:${path}`;
      await assertCouldNotRun(await smoke(target, target.url, 'k6'), /^the load engine failed: k6 exited with/);
    } finally {
      process.env['PATH'] = path;
      await rm(bin, { recursive: true, force: true });
      await target.close();
    }
  });

  it('when the registry does not take the seed', async () => {
    const target = await startTarget(new MemoryStore());
    const front = await startFront(target.url, (req) =>
      req.method === 'POST' && req.url === '/v1/batch' ? { answer: 503, code: 'STORAGE_UNAVAILABLE' } : null,
    );
    try {
      await assertCouldNotRun(await smoke(target, front.url, 'node'), /^the load engine failed: .*seeding failed/);
    } finally {
      await front.close();
      await target.close();
    }
  });

  it('when the target starts refusing the tokens it accepted at preflight', async () => {
    const target = await startTarget(new MemoryStore());
    // From the first resolve on, as a registry whose trusted keys were rotated mid-run would.
    let rotated = false;
    const front = await startFront(target.url, (req) => {
      rotated ||= req.method === 'POST' && req.url === '/v1/routes';
      return rotated && req.headers.authorization ? { answer: 401, code: 'UNAUTHENTICATED' } : null;
    });
    try {
      await assertCouldNotRun(
        await smoke(target, front.url, 'node'),
        /^after the load, the target refused a token signed with kid=\S+ \(role [a-z: ]+\)/,
      );
    } finally {
      await front.close();
      await target.close();
    }
  });
});
