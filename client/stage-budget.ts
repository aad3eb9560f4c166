// How long each stage of a run may take. Every exchange has its deadline,
// but a stage makes many, and a target that answers each just inside its
// deadline would still keep a run going for hours: so each stage has a
// budget, stated in its result, given with --budget STAGE=DURATION or
// scaled from what the stage runs. A stage out of budget stops what it
// started and the run ends COULD NOT JUDGE, naming the stage and what was
// outstanding: a slow target is not evidence against the registry.
import { FleetproofError } from './errors.ts';

export const BUDGETED_STAGES = ['conformance', 'retirement', 'properties', 'faults', 'load'] as const;
export type BudgetedStage = (typeof BUDGETED_STAGES)[number];
/** Milliseconds per stage, as asked; a stage not named takes its default. */
export type StageBudgets = Partial<Record<BudgetedStage, number>>;

/** A stage that ran out of its budget: the message names the stage, the budget and what was outstanding. */
export class BudgetSpent extends FleetproofError {
  constructor(message: string) {
    super('FP_ERR_COULD_NOT_RUN', message);
  }
}

/** `90s`, `5m`, `1.5h`, `250ms` (seconds without a unit) in milliseconds; null when it is not a duration. */
export function durationMs(text: string): number | null {
  const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h']);
}

/** `conformance=20m` items (each may be a comma list) as budgets; a problem is a usage error of the caller. */
export function parseBudgets(values: readonly string[]): StageBudgets {
  const budgets: StageBudgets = {};
  for (const item of values.flatMap((v) => v.split(',')).map((v) => v.trim())) {
    if (item === '') continue;
    const [stage = '', duration = ''] = item.split('=', 2);
    if (!(BUDGETED_STAGES as readonly string[]).includes(stage))
      throw new FleetproofError('FP_ERR_USAGE', `--budget ${item}: no stage ${stage} (stages: ${BUDGETED_STAGES.join(', ')})`);
    const ms = durationMs(duration);
    if (ms === null || ms <= 0)
      throw new FleetproofError('FP_ERR_USAGE', `--budget ${item}: the budget must be a duration above zero, such as 90s, 20m or 1h`);
    budgets[stage as BudgetedStage] = ms;
  }
  return budgets;
}

/** `20 min`, `90 s`: a budget as a reader takes it in. */
export function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/**
 * One stage's budget, running: its signal aborts when the budget is spent,
 * so whatever the stage started (requests, cases, suites) stops.
 */
export class Budget {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly startedAt = performance.now();
  private stoppedAt: number | null = null;

  constructor(
    readonly stage: BudgetedStage,
    readonly ms: number,
  ) {
    this.timer = setTimeout(() => this.controller.abort(this.spentError([])), ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Also once its time is up before the timer ran: a stage that never yields to the event loop still sees it spent. */
  get spent(): boolean {
    return this.controller.signal.aborted || this.remainingMs() === 0;
  }

  /** Spends what is left now: a stage that ran to the budget's limit by its own clock (fast-check's) is out of budget. */
  exhaust(): void {
    if (!this.controller.signal.aborted) this.controller.abort(this.spentError([]));
  }

  remainingMs(): number {
    return Math.max(0, this.ms - ((this.stoppedAt ?? performance.now()) - this.startedAt));
  }

  /** Why the stage stopped, naming what it had not finished (the first ten, and how many more). */
  spentError(outstanding: readonly string[]): BudgetSpent {
    const named = outstanding.slice(0, 10).join(', ') + (outstanding.length > 10 ? ` and ${outstanding.length - 10} more` : '');
    return new BudgetSpent(
      `the ${this.stage} stage ran out of its budget of ${describeDuration(this.ms)} (--budget ${this.stage}=DURATION)` +
        (outstanding.length > 0 ? `; outstanding: ${named}` : ''),
    );
  }

  /** Ends the timer, and the budget's count: the stage finished, or stopped. */
  stop(): void {
    clearTimeout(this.timer);
    this.stoppedAt ??= performance.now();
  }
}
