// The faults stage's budget unless given (--budget faults=DURATION): every
// round it may run, each with the properties stage's allowance for the same
// suites and runs, after the soak it was asked for, and then the time the
// registry is given to come back and the sweep to read back what the
// faults left. A registry that needs longer than this is not judged: the
// run ends COULD NOT JUDGE, naming the round and the suites outstanding.
import { propertiesBudgetMs } from '../../properties/runner/budget.ts';
import type { SuiteName } from '../../properties/suites/index.ts';

/** Waiting for the registry to be ready again, the quiet before the sweep, and the sweep itself. */
const AFTER_THE_FAULTS_MS = 5 * 60_000;
/** A soak ends once its time is up and the round running then has finished: one round more than fits it. */
const ROUNDS_PAST_A_SOAK = 2;

export interface FaultsPlan {
  suites: readonly SuiteName[];
  /** Runs per suite and round. */
  runs: number;
  /** The most rounds the stage runs to gather its faults. */
  maxRounds: number;
  /** A soak: rounds go on for at least this long. */
  minDurationMs?: number;
}

export function faultsBudgetMs(plan: FaultsPlan): number {
  const round = propertiesBudgetMs('http', plan.suites, plan.runs);
  const rounds = plan.minDurationMs ? plan.minDurationMs + ROUNDS_PAST_A_SOAK * round : plan.maxRounds * round;
  return rounds + AFTER_THE_FAULTS_MS;
}
