// The faults stage runs under a budget: once it is spent, the suites stop,
// the faults end and the stage could not judge, naming its budget and the
// round it had not finished, never passing on what it did not run; a
// counterexample found before it ran out stands. Unless given, the budget
// covers every round the stage may run.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startEmbeddedReference } from '../../../reference/embedded-reference.ts';
import { startDefectiveReference } from '../../../reference/defects/defective.ts';
import { propertiesBudgetMs } from '../../../properties/runner/budget.ts';
import type { FaultsDocument } from '../../../reports/schemas/faults-result.ts';
import { DEFAULT_SCHEDULE } from '../../nemesis/nemesis.ts';
import { faultsBudgetMs } from '../faults-budget.ts';
import { FAULT_SUITES, faultsStage } from '../faults-stage.ts';

const root = await mkdtemp(join(tmpdir(), 'fleetproof-faults-budget-'));
after(() => rm(root, { recursive: true, force: true }));

describe('the faults stage budget', () => {
  it('spent, stops the round, ends the faults and could not judge, naming what was outstanding', async () => {
    const reference = await startEmbeddedReference({ store: 'memory' });
    const out = join(root, 'spent');
    try {
      const output = await faultsStage(
        {
          out,
          runId: 'fp20261206t000000faults03',
          targetUrl: reference.url,
          key: reference.signingKey,
          keyPath: reference.signingKeyPath,
          profile: 'smoke',
          targetFlags: '--target T --key K',
          budgets: { faults: 2000 },
          log: () => {},
        },
        {
          nemesis: { kinds: ['proxy'], schedule: { ...DEFAULT_SCHEDULE, faultMs: 300, quietMs: 200 }, seed: 5 },
          suites: ['pinned-routes', 'stale-cursor'],
          // Far more runs than any machine makes in two seconds.
          runs: 10_000_000,
          minFaults: 1,
          maxRounds: 1,
          seed: 7,
        },
      );
      assert.equal(output.record.status, 'could-not-run');
      const reasons = output.record.reasons.join('\n');
      assert.match(
        reasons,
        /the faults stage ran out of its budget of 2 s \(--budget faults=DURATION\); outstanding: pinned-routes \(round 1\), stale-cursor \(round 1\)/,
      );
      assert.deepEqual(output.failures, []);
      const doc = JSON.parse(await readFile(join(out, 'faults', 'result.json'), 'utf8')) as FaultsDocument;
      assert.equal(doc.budget_ms, 2000);
      assert.equal(doc.sweep, null);
      // The faults ended: the registry answers directly and through nothing else the stage left behind.
      assert.equal((await fetch(`${reference.url}/ready`)).status, 200);
    } finally {
      await reference.close();
    }
  });

  it('spent after a counterexample, keeps the counterexample as the verdict', async () => {
    // The first suite finds the body-tenant defect in its first runs; the second makes more runs than the budget allows.
    // The second compares the catalog revision exactly: a run of the first left going by the time limit would move it.
    const reference = await startDefectiveReference('tenant-from-body', { store: 'memory' });
    const out = join(root, 'counterexample');
    try {
      const output = await faultsStage(
        {
          out,
          runId: 'fp20261206t000000faults04',
          targetUrl: reference.url,
          key: reference.signingKey,
          keyPath: reference.signingKeyPath,
          profile: 'smoke',
          targetFlags: '--target T --key K',
          budgets: { faults: 60_000 },
          log: () => {},
        },
        {
          nemesis: { kinds: ['proxy'], schedule: { ...DEFAULT_SCHEDULE, faultMs: 300, quietMs: 200 }, seed: 5 },
          suites: ['tenant-isolation', 'stale-cursor'],
          runs: 10_000_000,
          minFaults: 1,
          maxRounds: 1,
          seed: 7,
        },
      );
      assert.equal(output.record.status, 'failed', output.record.reasons.join('; '));
      assert.deepEqual(
        output.failures.map((f) => f.subject),
        ['tenant-isolation', 'stale-cursor'],
      );
      assert.match(output.failures[0]!.message, /^tenant-isolation under faults: /);
      assert.match(output.failures[1]!.message, /ran out of its budget/);
    } finally {
      await reference.close();
    }
  });

  it('unless given, covers every round at the properties allowance, and a soak with two rounds past its end', () => {
    const round = propertiesBudgetMs('http', FAULT_SUITES, 4);
    const plain = faultsBudgetMs({ suites: FAULT_SUITES, runs: 4, maxRounds: 10 });
    assert.ok(plain >= 10 * round, `${plain} ms for rounds of ${round} ms`);
    const soak = faultsBudgetMs({ suites: FAULT_SUITES, runs: 4, maxRounds: 10_000, minDurationMs: 30 * 60_000 });
    assert.ok(soak >= 30 * 60_000 + 2 * round && soak < 30 * 60_000 + 10 * round, `${soak} ms`);
  });
});
