// The budgets of a conformance run, unless given (--budget): the stage's
// from its cases, the retirement's from the records the run created. Each
// allows a case or a record far more than a correct registry needs, and no
// more than its own time limit, so the budget ends only a run that a slow or
// stuck target would otherwise keep going.
import type { ConformanceCase } from '../harness/define-case.ts';
import { RETIREMENT_WIDTH, type RetirementLedger } from '../harness/retirement.ts';
import type { ConformConfig } from './config.ts';
import { caseTimeLimitMs } from './run-case.ts';

/** The preflight and the clock reading, a handful of requests. */
const SETUP_ALLOWANCE_MS = 60_000;
/** What one case is allowed (four times as much when slow); the reference on a loaded machine takes a few seconds at most. */
const CASE_ALLOWANCE_MS = 20_000;
/** A record is retired with a read and a write. */
const RECORD_ALLOWANCE_MS = 4_000;
const RETIREMENT_FLOOR_MS = 60_000;

export const alone = (c: Pick<ConformanceCase, 'flags'>): boolean => c.flags.includes('serial') || c.flags.includes('exclusive');

export function conformanceBudgetMs(cases: readonly ConformanceCase[], config: Pick<ConformConfig, 'timeoutMs' | 'concurrency'>): number {
  const allowance = (c: ConformanceCase) => Math.min(caseTimeLimitMs(c, config.timeoutMs), caseTimeLimitMs(c, CASE_ALLOWANCE_MS));
  const sum = (list: readonly ConformanceCase[]) => list.reduce((total, c) => total + allowance(c), 0);
  const together = cases.filter((c) => !alone(c));
  return SETUP_ALLOWANCE_MS + Math.ceil(sum(together) / config.concurrency) + sum(cases.filter(alone));
}

export function retirementBudgetMs(ledger: RetirementLedger): number {
  const records = ledger.routes.size + ledger.replicas.size + ledger.bindings.size + ledger.instances.size + ledger.types.size;
  return RETIREMENT_FLOOR_MS + Math.ceil((records * RECORD_ALLOWANCE_MS) / RETIREMENT_WIDTH);
}
