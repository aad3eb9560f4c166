// --budget STAGE=DURATION (FLEETPROOF_BUDGET, "budget" in a config file): the
// most a stage of the run may take, for every command that runs a stage.
// A stage not named takes a default scaled from what it runs; its result
// states the budget it ran under (client/stage-budget.ts). The flag itself
// is declared in flags/shared.ts.
import { parseBudgets, type StageBudgets } from '../client/stage-budget.ts';
import { UsageError } from './args.ts';

export function budgetsOf(values: readonly string[] | undefined): StageBudgets {
  try {
    return parseBudgets(values ?? []);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
