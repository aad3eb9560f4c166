// Phase budgets that judge no speed stretch with the machine's load per
// core beyond what they allow for, within MAX_STRETCH, and the profile says by how much; budgets that
// judge speed never move.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUDGETED_LOAD_PER_CORE, budgetStretch, fitProfileToMachine, MAX_STRETCH } from '../fit-to-machine.ts';
import { loadBudgetMs } from '../load-budget.ts';
import { loadScaleContract, resolveProfile } from '../scale-contract.ts';

const contract = loadScaleContract();

describe('phase budgets fitted to the machine', () => {
  it('stretch by the load per core beyond what the budgets allow, never below 1 nor above the ceiling', () => {
    assert.equal(BUDGETED_LOAD_PER_CORE, 2);
    assert.equal(budgetStretch(0.4, 2), 1);
    assert.equal(budgetStretch(4, 2), 1);
    assert.equal(budgetStretch(5, 2), 1.3);
    assert.equal(budgetStretch(12, 2), 3);
    assert.equal(budgetStretch(500, 2), MAX_STRETCH);
    assert.equal(budgetStretch(6, 0), 3, 'a machine that reports no cores counts as one');
  });

  it('stretches every budget of a profile whose budgets only bound the run, and says so', () => {
    const smoke = resolveProfile(contract, 'smoke');
    assert.equal(smoke.budgets_judge_speed, false);
    const stretched = fitProfileToMachine(smoke, 12, 2);
    const budgets = (p: typeof smoke) => p.phases.map((x) => x.budget_s);
    assert.deepEqual(
      budgets(stretched),
      budgets(smoke).map((b) => (b === undefined ? undefined : b * 3)),
    );
    assert.equal(
      stretched.stretched,
      "phase budgets ×3, for a load average of 12.00 on 2 cores (this profile's budgets judge no speed: they only bound the run)",
    );
    const phasesMs = stretched.phases.reduce((n, p) => n + (p.budget_s ?? 0) * 1000, 0);
    assert.ok(loadBudgetMs(stretched) >= 2 * phasesMs, 'the stage budget covers the stretched phases twice over');
    assert.equal(smoke.stretched, undefined, 'the profile given is left as it was');
  });

  it('leaves budgets that judge speed, and an idle machine, alone', () => {
    const slo = resolveProfile(contract, 'aip-fleet-slo-v1');
    assert.notEqual(slo.budgets_judge_speed, false);
    assert.equal(fitProfileToMachine(slo, 16, 2), slo);
    const smoke = resolveProfile(contract, 'smoke');
    assert.equal(fitProfileToMachine(smoke, 4, 2), smoke, 'two running processes per core: the budgets allow for it');
  });
});
