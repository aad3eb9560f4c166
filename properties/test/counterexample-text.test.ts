// A property failure explains itself: it names every field where the
// registry's answer and the model's differ, and prints both values in full,
// however long the answer is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PropertyViolation } from '../check/violations.ts';
import { takeBranch } from '../model/command-support.ts';
import { differences, sameJson } from '../model/json.ts';
import type { ModelState } from '../model/model-state.ts';
import { failure, success } from '../model/rules/outcome.ts';

const long = 'x'.repeat(2000);
const model = { assignment: { action_id: 'a-1', endpoint: `https://${long}` }, reserved: true, last_settlement: null };
const registry = { ...model, last_settlement: 'outcome_unknown' };

function violationOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof PropertyViolation, String(err));
    return err.message;
  }
  assert.fail('no violation was raised');
}

describe('counterexamples explain themselves', () => {
  it('differences names every differing field with both values', () => {
    assert.deepEqual(differences({ a: 1, b: [1, 2], c: 'same' }, { a: 2, b: [1, 3], d: true }), [
      'a: registry 1, model 2',
      'b[1]: registry 2, model 3',
      'c: registry "same", model (absent)',
      'd: registry (absent), model true',
    ]);
    assert.deepEqual(differences(model, structuredClone(model)), []);
  });

  it("a divergence names the differing field and prints the registry's answer and the model's in full", () => {
    const state = {} as ModelState;
    const message = violationOf(() =>
      takeBranch('re-resolve a-1', [success(state, model), failure(state, 'CONFLICT')], { ok: true, value: registry }, sameJson),
    );
    assert.match(message, /last_settlement: registry "outcome_unknown", model null/);
    assert.ok(message.includes(`the registry answered ok ${JSON.stringify(registry)}`), 'the whole answer of the registry');
    assert.ok(message.includes(`ok ${JSON.stringify(model)}`), 'the whole prediction of the model');
    assert.doesNotMatch(message, /endpoint: registry/, 'fields that agree are not listed');
  });
});
