// The suite must fail deliberately broken registries. For every fault switch
// of the reference (reference/domain/faults.ts), a run through the same API
// the CLI uses exits 1 and a failing case names the clause the fault breaks.
// Runs are narrowed to the categories where the fault shows, never to a
// single hand-picked case.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAULTS, type FaultName } from '../../reference/domain/faults.ts';
import type { Category } from '../harness/vocabulary.ts';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget } from './reference-target.ts';

const CATEGORIES_OF: Record<FaultName, Category[]> = {
  'settle-skip-fence': ['settlement'],
  'settle-release-twice': ['settlement'],
  'reselect-on-retry': ['pinned'],
  'cursor-skip-revision': ['pagination'],
  'capacity-outside-lock': ['admission', 'routing'],
  'tenant-from-body': ['auth-and-isolation'],
  'nesting-bound-too-low': ['wire'],
  'unbounded-lease-expiry': ['leases'],
  'race-settle-release': ['settlement'],
  'race-retry-budget': ['pinned'],
  'race-action-insert': ['pinned'],
  'race-scope-reservation': ['admission'],
  'race-replica-capacity': ['admission', 'routing'],
};

describe('conformance fails broken registries', () => {
  it('knows the categories of every fault switch', () => {
    assert.deepEqual(Object.keys(CATEGORIES_OF).sort(), Object.keys(FAULTS).sort());
  });

  for (const [fault, clause] of Object.entries(FAULTS) as Array<[FaultName, string]>) {
    it(`${fault}: exit 1, failing [${clause}]`, async () => {
      const target = await startReferenceTarget({ faults: [fault], silent: true });
      try {
        const outcome = await runConformance({
          config: target.config({ categories: CATEGORIES_OF[fault] }),
          signingKey: target.key,
          writeReports: false,
        });
        assert.equal(outcome.exitCode, 1, outcome.error);
        const failures = outcome.result!.cases.filter((c) => c.status === 'fail');
        const citing = failures.filter((c) => c.clause === clause || c.failure_clause === clause);
        assert.ok(
          citing.length > 0,
          `no failing case cites [${clause}]; failures: ${failures.map((c) => `${c.id} [${c.failure_clause}]`).join(', ') || 'none'}`,
        );
        assert.equal(outcome.result!.clauses.find((c) => c.id === clause)?.status, 'fail');
      } finally {
        await target.close();
      }
    });
  }
});
