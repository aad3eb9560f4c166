// Lease churn whose lapse reports get an indeterminate answer
// ([failure-indeterminate]): the registry may or may not have applied them,
// so the replicas may or may not be offline afterwards, and the checks that
// hinge on them fail without proving anything. Such a run could not judge
// them, and the audit accepts either state of those replicas; a registry
// that acknowledges the lapse and then loses it still fails, since every
// step it took was answered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchItem, BatchResult } from '../../contract/records.ts';
import { storageUnavailable } from '../../contract/registry-error.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { runSmoke, startTarget } from './in-process-target.ts';

type LapseAnswer = 'lost-before-applying' | 'lost-after-applying' | 'acknowledged-not-applied';

/** The reference, but a batch that reports leases already expired is treated as `answer` says. */
class LapseStore extends MemoryStore {
  constructor(private readonly answer: LapseAnswer) {
    super();
  }

  override async applyBatch(items: BatchItem[]): Promise<BatchResult> {
    const lapse = items.length > 0 && items.every((i) => i.op === 'report_health' && Date.parse(i.report.lease_expires_at) <= Date.now());
    if (!lapse) return super.applyBatch(items);
    if (this.answer === 'lost-before-applying') throw storageUnavailable('the storage write failed');
    if (this.answer === 'acknowledged-not-applied')
      return {
        catalog_revision: (await this.fleetStatus()).catalog_revision,
        results: items.map((_, index) => ({ index, outcome: 'applied' })),
      };
    await super.applyBatch(items);
    throw storageUnavailable('the acknowledgement of the commit was lost');
  }
}

async function churnAgainst(answer: LapseAnswer) {
  const target = await startTarget(new LapseStore(answer));
  try {
    const outcome = await runSmoke(target, { phases: ['lease_churn'] });
    const offline = outcome.report!.audit!.invariants.find((i) => i.id === 'offline_as_expected')!;
    return { outcome, report: outcome.report!, offline };
  } finally {
    await target.close();
  }
}

for (const answer of ['lost-before-applying', 'lost-after-applying'] as const) {
  test(`lapse reports ${answer.replaceAll('-', ' ')} leave the run could-not-judge, not failed`, async () => {
    const { outcome, report, offline } = await churnAgainst(answer);
    assert.equal(offline.ok, true, `the audit accepts either state: ${offline.examples.join('; ')}`);
    assert.equal(report.verdict, 'could-not-judge', report.reasons.join('\n'));
    assert.equal(outcome.exitCode, 2);
    assert.ok(
      report.could_not_judge.some((r) => /^phase lease_churn: \d+ check\(s\) not judged/.test(r)),
      report.reasons.join('\n'),
    );
    assert.deepEqual(
      report.thresholds.filter((t) => !t.ok).map((t) => t.id),
      [],
      'an indeterminate answer is no unexpected response',
    );
  });
}

test('a registry that acknowledges the lapse and never applies it fails the run', async () => {
  const { outcome, report, offline } = await churnAgainst('acknowledged-not-applied');
  assert.equal(offline.ok, false, 'the replicas it acknowledged stay online');
  assert.match(offline.examples[0]!, /is ready, expected offline/);
  assert.equal(report.verdict, 'fail');
  assert.equal(outcome.exitCode, 1);
});
