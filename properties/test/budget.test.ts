// The properties stage runs under a budget: once it is spent, the suite
// running stops without a verdict, the suites not started are not run, and
// the run says could not judge (exit 2), naming the stage and the suites
// outstanding. A budget that is not spent changes nothing. A run the limit
// cut off sends nothing once its suite has returned, so it cannot change
// the registry under the next suite's model.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Budget } from '../../client/stage-budget.ts';
import { referenceMemoryTarget } from '../../cli/reference-targets.ts';
import { runPropertiesCommand } from '../runner/properties-command.ts';
import type { ResultDocument } from '../runner/result-document.ts';
import { exitCodeOf, runProperties } from '../runner/run-properties.ts';
import type { Target } from '../targets/target.ts';

/** The target, each registry call slowed by `ms` and counted. */
function slowedAndCounted(target: Target, ms: number): { target: Target; calls: () => number } {
  let calls = 0;
  const openRun = async () => {
    const run = await target.openRun();
    const store = new Proxy(run.store, {
      get(inner, prop) {
        const value = Reflect.get(inner, prop, inner) as unknown;
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          calls++;
          await new Promise((resolve) => setTimeout(resolve, ms));
          return (value as (...a: unknown[]) => unknown).apply(inner, args);
        };
      },
    });
    return { ...run, store, close: () => run.close() };
  };
  return { target: { ...target, openRun, close: () => target.close() }, calls: () => calls };
}

describe('the properties stage budget', () => {
  it('stops the suite running when it is spent, and does not start the others', async () => {
    const budget = new Budget('properties', 300);
    try {
      // Far more runs than the in-process store can make in the budget, however fast the machine.
      const result = await runProperties({
        target: referenceMemoryTarget(),
        suites: ['pinned-routes', 'stale-cursor'],
        runs: 10_000_000,
        seed: 3,
        budget,
        env: {},
      });
      const [running, next] = result.suites;
      assert.equal(running!.status, 'error');
      assert.match(running!.error ?? '', /ran out of its budget while this suite ran/);
      assert.equal(next!.status, 'error');
      assert.equal(next!.runs, 0);
      assert.match(next!.error ?? '', /before this suite started/);
      assert.match(result.unfinished ?? '', /properties stage ran out of its budget of 300 ms.*outstanding: pinned-routes, stale-cursor/);
      assert.equal(result.budgetMs, 300);
      assert.equal(exitCodeOf(result), 2);
    } finally {
      budget.stop();
    }
  });

  it('ends the command could not judge and states the budget in result.json', async (t) => {
    t.mock.method(console, 'log', () => {});
    const dir = await mkdtemp(join(tmpdir(), 'fleetproof-budget-'));
    try {
      const run = (budgetMs: number, runs: number) =>
        runPropertiesCommand({
          openTarget: async () => referenceMemoryTarget(),
          kind: 'memory',
          budgetMs,
          runs,
          seed: '5',
          path: undefined,
          suites: ['stale-cursor'],
          out: join(dir, String(budgetMs)),
          argv: [],
        });
      const read = async (budgetMs: number) =>
        JSON.parse(await readFile(join(dir, String(budgetMs), 'result.json'), 'utf8')) as ResultDocument;
      assert.equal(await run(200, 10_000_000), 2);
      const spent = await read(200);
      assert.equal(spent.verdict, 'error');
      assert.equal(spent.settings.budget_ms, 200);
      assert.equal(spent.settings.answer_limit_bytes, null);
      assert.match(spent.unfinished ?? '', /properties stage ran out of its budget.*outstanding: stale-cursor/);
      assert.equal(await run(600_000, 3), 0);
      const kept = await read(600_000);
      assert.equal(kept.verdict, 'hold');
      assert.equal(kept.settings.budget_ms, 600_000);
      assert.equal(kept.unfinished, undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves no run going once a suite stopped at its limit has returned', async () => {
    // Each call slowed so that a run of up to 30 commands outlasts the limit by far.
    const { target, calls } = slowedAndCounted(referenceMemoryTarget(), 20);
    try {
      const result = await runProperties({ target, suites: ['stale-cursor'], runs: 1_000, seed: 7, timeLimitMs: 150, env: {} });
      assert.equal(result.suites[0]!.status, 'error', result.suites[0]!.error ?? '');
      const atReturn = calls();
      assert.ok(atReturn > 0, 'the suite called the registry');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(calls(), atReturn, 'calls after the suite returned');
    } finally {
      await target.close();
    }
  });
});
