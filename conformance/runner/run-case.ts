// One case, run to its result: pass, fail, skip or error. A case has its own
// time limit (four times as long for a `slow` one), counted from its last
// exchange begun or answered, so a case that a loaded machine slows while it
// keeps exchanging goes on, and one left waiting on a silent target ends as
// soon as before; however steadily it exchanges, it stops at PACE_CEILING
// times its limit. It also stops with the rest of the stage when the stage's
// budget is spent. Either way it ends error, since a slow or stuck target is
// no proof of a violation.
import { setMaxListeners } from 'node:events';
import type { Exchange } from '../../client/exchange.ts';
import { createCaseContext, type RunScope } from '../harness/context.ts';
import type { ConformanceCase } from '../harness/define-case.ts';
import { CaseNotProvocable, ConformanceFailure, HarnessError } from '../harness/failure.ts';
import type { LoadedCase } from './load-cases.ts';
import type { CaseResult } from './result.ts';

export const SLOW_FACTOR = 4;
/** How many times its limit a case that keeps exchanging may run. */
export const PACE_CEILING = 4;

/** The time limit of one case: the most it may wait without an exchange begun or answered. */
export function caseTimeLimitMs(c: Pick<ConformanceCase, 'flags'>, timeoutMs: number): number {
  return c.flags.includes('slow') ? timeoutMs * SLOW_FACTOR : timeoutMs;
}

/** When the case last did something on the wire: the latest exchange begun, or answered (or failed). */
function lastActivity(exchanges: readonly Exchange[], startedAt: number): number {
  let latest = startedAt;
  for (const e of exchanges) latest = Math.max(latest, Date.parse(e.started_at) + e.duration_ms);
  return latest;
}

/** What a case that the stage's budget stopped, or never let start, says. */
export const STOPPED_BY_BUDGET = 'no verdict: the conformance stage ran out of its budget while this case ran';
export const NOT_STARTED = 'not run: the conformance stage ran out of its budget before this case started';

export async function runCase(scope: RunScope, c: ConformanceCase, timeoutMs: number, stage: AbortSignal): Promise<CaseResult> {
  const controller = new AbortController();
  // Concurrency cases put a hundred requests in flight on one signal.
  setMaxListeners(0, controller.signal);
  const { ctx, exchanges } = createCaseContext(scope, c.id, controller.signal);
  const startedAt = Date.now();
  const limit = caseTimeLimitMs(c, timeoutMs);
  const ceiling = limit * PACE_CEILING;
  let timer: NodeJS.Timeout | undefined;
  let onStageEnd: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const end = (err: HarnessError) => {
      controller.abort(err);
      reject(err);
    };
    const noVerdict = '(no verdict: a slow or stuck target is not proof of a violation)';
    const check = () => {
      const now = Date.now();
      const quietUntil = lastActivity(exchanges, startedAt) + limit;
      if (now >= startedAt + ceiling)
        end(new HarnessError(`timed out after ${ceiling} ms, ${PACE_CEILING} times its limit, though it kept exchanging ${noVerdict}`));
      else if (now >= quietUntil) end(new HarnessError(`timed out after ${limit} ms without an exchange begun or answered ${noVerdict}`));
      else timer = setTimeout(check, Math.min(quietUntil, startedAt + ceiling) - now);
    };
    timer = setTimeout(check, limit);
    onStageEnd = () => end(new HarnessError(STOPPED_BY_BUDGET));
    if (stage.aborted) onStageEnd();
    else stage.addEventListener('abort', onStageEnd, { once: true });
  });
  const base = {
    id: c.id,
    clause: c.clause,
    category: c.category,
    severity: c.severity,
    description: c.description,
    flags: [...c.flags],
    features: [...c.features],
  };
  const running = c.run(ctx);
  running.catch(() => {});
  try {
    await Promise.race([running, stopped]);
    return {
      ...base,
      status: 'pass',
      started_at: new Date(startedAt).toISOString(),
      duration_ms: Date.now() - startedAt,
      message: null,
      failure_clause: null,
      exchange: null,
      exchange_count: exchanges.length,
    };
  } catch (err) {
    const last = exchanges.at(-1) ?? null;
    const common = {
      ...base,
      started_at: new Date(startedAt).toISOString(),
      duration_ms: Date.now() - startedAt,
      exchange_count: exchanges.length,
    };
    if (ConformanceFailure.is(err)) {
      return { ...common, status: 'fail', message: err.message, failure_clause: err.clause ?? c.clause, exchange: err.exchange ?? last };
    }
    if (err instanceof CaseNotProvocable) return { ...common, status: 'skip', message: err.message, failure_clause: null, exchange: null };
    const message =
      err instanceof HarnessError
        ? err.message
        : `${(err as Error)?.name ?? 'Error'}: ${(err as Error)?.message ?? String(err)} ${
            (err as Error)?.stack
              ?.split('\n')
              .find((l) => l.includes('/conformance/'))
              ?.trim() ?? ''
          }`.trim();
    return { ...common, status: 'error', message, failure_clause: null, exchange: last };
  } finally {
    clearTimeout(timer);
    if (onStageEnd) stage.removeEventListener('abort', onStageEnd);
  }
}

export function staticResult(l: LoadedCase, status: 'skip' | 'error', message: string): CaseResult {
  const c = l.case;
  return {
    id: l.id,
    clause: c?.clause ?? 'unknown',
    category: c?.category ?? l.id.split('/')[0] ?? 'unknown',
    severity: c?.severity ?? null,
    description: c?.description ?? '',
    flags: [...(c?.flags ?? [])],
    features: [...(c?.features ?? [])],
    status,
    started_at: null,
    duration_ms: 0,
    message,
    failure_clause: null,
    exchange: null,
    exchange_count: 0,
  };
}

/**
 * A failure seen while the target had stopped answering, or had started
 * refusing the tokens it accepted at preflight, is no evidence about the
 * registry: the case ends in error.
 */
export async function unlessTargetWentAway(r: CaseResult, stillJudgeable: () => Promise<string | null>): Promise<CaseResult> {
  if (r.status !== 'fail') return r;
  const problem = await stillJudgeable();
  return problem === null
    ? r
    : { ...r, status: 'error', message: `no verdict: after this case ${problem} (the case had seen: ${r.message})`, failure_clause: null };
}
