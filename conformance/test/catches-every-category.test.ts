// The fast share of `npm run power`: one deliberate defect per conformance
// category, judged by the cases of its clause on the memory store, so a
// change that blinds a whole category (a case that can no longer fail, a
// check loosened, a category that stops loading) fails here and not only in
// the full power run.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CATEGORY_NAMES, type Category } from '../harness/vocabulary.ts';
import { defectNamed } from '../../reference/defects/catalogue.ts';
import { judge } from '../../scripts/power/judge.ts';
import { caseIndex, planFor, type CaseIndex } from '../../scripts/power/plan.ts';

/** For each category, a defect of a clause its cases judge. */
const ONE_PER_CATEGORY: Readonly<Record<Category, string>> = {
  admission: 'last-unit-refused-as-contention',
  'auth-and-isolation': 'exp-leeway-five-minutes',
  batch: 'batch-stops-at-rejected-item',
  catalog: 'text-underscore-wildcard',
  circuits: 'circuit-reads-closed',
  fleet: 'draining-counted-as-ready',
  leases: 'expiry-out-of-lease-order',
  operations: 'version-declares-other-contract',
  pagination: 'cursor-skip-revision',
  pinned: 'reselect-on-retry',
  records: 'duplicate-artifact-accepted',
  revisions: 'revision-skips-binding-writes',
  routing: 'region-preference-ignored',
  settlement: 'settle-skip-fence',
  validation: 'unknown-fields-dropped',
  wire: 'media-type-not-checked',
};

let index: CaseIndex;
before(async () => {
  index = await caseIndex();
});

describe('conformance catches a defect in every category', { concurrency: 2 }, () => {
  it('names a defect for every category', () => {
    assert.deepEqual(Object.keys(ONE_PER_CATEGORY).sort(), [...CATEGORY_NAMES].sort());
  });

  for (const [category, name] of Object.entries(ONE_PER_CATEGORY)) {
    it(`${category}: ${name} is killed by conformance`, async () => {
      const defect = await defectNamed(name);
      const plan = planFor(defect, index);
      assert.ok(plan.categories.includes(category as Category), `[${defect.clause}] has no case in ${category}`);
      const j = await judge(defect, plan, { store: 'memory', seed: 41, conformanceOnly: true });
      assert.equal(j.verdict, 'killed', `${name} ${j.verdict}${j.notes.length ? `: ${j.notes.join('; ')}` : ''}`);
    });
  }
});
