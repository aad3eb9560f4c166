// The properties stage's budget unless given (--budget properties=DURATION):
// a minute to open the target, and for every run a suite makes far more
// than a correct registry needs on its kind of target.
import { SUITES, type SuiteName } from '../suites/index.ts';
import type { Target } from '../targets/target.ts';

const OPENING_MS = 60_000;
const RUN_ALLOWANCE_MS: Record<Target['kind'], number> = { memory: 1000, postgres: 10_000, http: 5000 };

export function propertiesBudgetMs(kind: Target['kind'], suites: readonly SuiteName[], runs?: number): number {
  return OPENING_MS + suites.reduce((total, name) => total + (runs ?? SUITES[name].defaultRuns[kind]) * RUN_ALLOWANCE_MS[kind], 0);
}
