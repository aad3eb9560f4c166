// A stage's budget: given as STAGE=DURATION, spent once its time is up even
// when the stage never let the timer run, and no longer counting once the
// stage stopped it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Budget, durationMs, parseBudgets } from '../stage-budget.ts';

const busyFor = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('stage budgets', () => {
  it('reads durations and refuses stages and durations it does not know', () => {
    assert.deepEqual(parseBudgets(['conformance=20m,retirement=90s', 'load=1.5h', 'faults=250ms']), {
      conformance: 1_200_000,
      retirement: 90_000,
      load: 5_400_000,
      faults: 250,
    });
    assert.equal(durationMs('45'), 45_000);
    assert.throws(() => parseBudgets(['suites=5m']), /no stage suites/);
    assert.throws(() => parseBudgets(['load=soon']), /must be a duration/);
    assert.throws(() => parseBudgets(['load=0s']), /must be a duration above zero/);
  });

  it('is spent once its time is up, though the stage never yielded to its timer', () => {
    const budget = new Budget('properties', 20);
    try {
      busyFor(40);
      assert.equal(budget.spent, true);
      assert.equal(budget.signal.aborted, false, 'the timer has not run yet');
      assert.match(
        budget.spentError(['stale-cursor']).message,
        /properties stage ran out of its budget of 20 ms.*outstanding: stale-cursor/,
      );
    } finally {
      budget.stop();
    }
  });

  it('stops counting once stopped: what runs after the stage does not spend it', async () => {
    const budget = new Budget('conformance', 30);
    budget.stop();
    busyFor(60);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(budget.spent, false);
    assert.equal(budget.signal.aborted, false);
  });

  it('calls off what the stage started once its timer runs', async () => {
    const budget = new Budget('load', 10);
    try {
      await new Promise<void>((resolve) => budget.signal.addEventListener('abort', () => resolve(), { once: true }));
      assert.equal(budget.spent, true);
      assert.match(String((budget.signal.reason as Error).message), /load stage ran out of its budget/);
    } finally {
      budget.stop();
    }
  });
});
