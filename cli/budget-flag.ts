// --budget STAGE=DURATION (FLEETPROOF_BUDGET, "budget" in a config file): the
// most a stage of the run may take, for every command that runs a stage.
// A stage not named takes a default scaled from what it runs; its result
// states the budget it ran under (client/stage-budget.ts).
import { BUDGETED_STAGES, parseBudgets, type StageBudgets } from '../client/stage-budget.ts';
import { UsageError, type FlagSpec } from './args.ts';

export const BUDGET_FLAG = {
  type: 'string',
  multiple: true,
  description: `STAGE=DURATION: the most a stage may take (${BUDGETED_STAGES.join(', ')}), e.g. conformance=20m; repeatable; a stage past it ends could not judge; default scaled from what the stage runs`,
} as const satisfies FlagSpec;

export function budgetsOf(values: readonly string[] | undefined): StageBudgets {
  try {
    return parseBudgets(values ?? []);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
