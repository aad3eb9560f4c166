import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Capabilities, CAPABILITY_VALUES } from '../capabilities.ts';
import { createObservation } from '../directory.ts';
import { canceledBy, CAUSES_BY_OUTCOME, DirectoryError, directoryError, isOutcome, OUTCOMES, outcomeOf, terminalFrom } from '../outcome.ts';
import { throwsOutcome } from './kit/assert-outcome.ts';
import { instance, snapshot } from './kit/fixtures.ts';
import { createInstanceWatch } from '../watch.ts';

test('every outcome is recognised directly and through a wrapping error', () => {
  for (const outcome of OUTCOMES) {
    const cause = CAUSES_BY_OUTCOME[outcome][0] ?? null;
    const err = directoryError(outcome, cause);
    assert.equal(err.outcome, outcome);
    assert.equal(err.reason, cause);
    const wrapped = new Error('context of the caller', { cause: err });
    assert.equal(outcomeOf(wrapped), outcome);
    assert.ok(isOutcome(wrapped, outcome));
    for (const other of OUTCOMES) if (other !== outcome) assert.ok(!isOutcome(wrapped, other));
    assert.equal(err.message, `instance directory: ${outcome}${cause ? `: ${cause}` : ''}`);
  }
});

test('a made-up cause or outcome becomes invalid with a safe cause', () => {
  const madeUpCause = directoryError('stale', 'token=secret');
  assert.equal(madeUpCause.outcome, 'invalid');
  assert.equal(madeUpCause.reason, 'unknown_cause');
  assert.ok(!madeUpCause.message.includes('secret'));
  const madeUpOutcome = directoryError('exploded', 'provider_unavailable');
  assert.equal(madeUpOutcome.outcome, 'invalid');
  assert.equal(madeUpOutcome.reason, 'unknown_outcome');
  // A cause that exists but belongs to another outcome is still refused.
  assert.equal(directoryError('stale', 'http_forbidden').reason, 'unknown_cause');
  assert.equal(directoryError('closed').message, 'instance directory: closed');
});

test('plain errors, null and odd values have no outcome and do not throw', () => {
  assert.equal(outcomeOf(new Error('x')), null);
  assert.equal(outcomeOf(null), null);
  assert.equal(outcomeOf(undefined), null);
  assert.equal(outcomeOf('stale'), null);
  assert.ok(!DirectoryError.is(Object.create(null)));
  assert.ok(!isOutcome(directoryError('stale'), 'nonsense' as never));
});

test('canceled wraps only the caller abort reason', () => {
  const controller = new AbortController();
  const reason = new DOMException('deadline', 'TimeoutError');
  controller.abort(reason);
  const err = canceledBy(controller.signal);
  assert.equal(err.outcome, 'canceled');
  assert.equal(err.cause, reason);
  assert.equal(terminalFrom(err).cause, reason, 'the filter keeps the local abort reason');
});

test('the terminal filter keeps only outcome and safe cause', () => {
  const leaky = new Error('GET https://kube.internal/?token=secret failed', { cause: directoryError('stale', 'resource_version_expired') });
  const clean = terminalFrom(leaky);
  assert.equal(clean.outcome, 'stale');
  assert.equal(clean.reason, 'resource_version_expired');
  assert.ok(!clean.message.includes('secret'));
  assert.equal(clean.cause, undefined);
  const untyped = terminalFrom(new Error('boom'));
  assert.equal(untyped.outcome, 'invalid');
  assert.equal(untyped.reason, 'terminal_outcome_required');
});

test('capabilities validate, sort, copy and compare', () => {
  const all = Capabilities.of([...CAPABILITY_VALUES].reverse());
  assert.deepEqual(all.values(), [...CAPABILITY_VALUES].sort());
  const values = all.values();
  values.pop();
  assert.equal(all.values().length, CAPABILITY_VALUES.length, 'values() is a copy');
  const readOnly = Capabilities.of(['observe', 'snapshot']);
  assert.ok(readOnly.supports('snapshot') && readOnly.supports('observe') && !readOnly.supports('registration'));
  assert.ok(readOnly.equals(Capabilities.of(['snapshot', 'observe'])));
  assert.ok(!readOnly.equals(all));
  assert.ok(all.includesAll(readOnly) && !readOnly.includesAll(all));
  throwsOutcome(() => Capabilities.of(['snapshot', 'snapshot']), 'invalid');
  throwsOutcome(() => Capabilities.of(['teleport']), 'invalid');
});

test('an observation needs a valid initial snapshot at order 0 and a watch', () => {
  const { watch } = createInstanceWatch(1);
  const initial = snapshot('populated', [instance('p')]);
  const observation = createObservation(initial, watch);
  assert.equal(observation.watch, watch);
  assert.deepEqual(observation.initial, initial);
  throwsOutcome(() => createObservation(initial, null as never), 'invalid');
  throwsOutcome(() => createObservation({ ...initial, state: 'missing' }, watch), 'invalid');
  throwsOutcome(() => createObservation(snapshot('empty', [], 2), watch), 'invalid');
});
