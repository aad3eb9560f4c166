// What became of each call over a network that faults: answered (ok, or a
// registry error: either way the registry decided), failed without an
// answer but surely not acted on (the fault proxy reset it before
// forwarding: Jepsen's :fail), or indeterminate (the answer was lost, timed
// out, or said STORAGE_UNAVAILABLE: Jepsen's :info). Every attempt carries
// its own `x-request-id`, which is how the proxy's ledger tells the first
// kind from the second. Reads change nothing, so a read without an answer is
// sent again, with backoff, until it is answered or its time is up; a write
// is never resent here: what a lost write means is the caller's to decide.
// While the harness's own nemesis has the target down (a killed process, a
// stopped database), a refused connection is no sign the target went away:
// every call that met the outage is indeterminate, and waits for the heal
// before it is sent again (a read) or given back (a write).
import type { RouteView } from '../../../contract/records.ts';
import { AnswerTooLarge } from '../../../client/http-transport.ts';
import { IndeterminateOutcome, NotForwarded } from '../../check/violations.ts';
import type { Op, OpKind } from '../../check/history.ts';
import { TargetUnreachable } from './http-client.ts';

export interface CallTally {
  answered: number;
  notForwarded: number;
  indeterminate: number;
  /** Reads sent again after no answer came. */
  readRetries: number;
}

/** The harness's own faults, as the nemesis that injects them knows them. */
export interface OwnOutage {
  /** True when one of them had the target down at some moment since `since` (performance.now()). */
  overlaps(since: number): boolean;
  /** True once none is in effect and the registry is ready again; false past the nemesis's own bound for a fault. */
  over(): Promise<boolean>;
}

export interface CallFaults {
  /** True when the request with this id surely never reached the registry (the proxy's ledger). */
  notForwarded?: (requestId: string) => boolean;
  /** True when the registry answered the request with this id and the proxy dropped the answer: it is done acting. */
  answeredThenLost?: (requestId: string) => boolean;
  /** How long a read keeps being resent while no answer comes; 0 sends it once. */
  readRetryMs?: number;
  /** Receives every resolve and settlement with its outcome, for a sweep after the faults. */
  history?: Op[];
  /** When the harness itself has the target down. */
  outage?: OwnOutage;
  /** Aborted when the stage calls every request off (its budget is spent): nothing is sent again, nothing waits for a heal. */
  calledOff?: AbortSignal;
}

/** The error a history gives an operation the proxy reset before forwarding. */
export const NOT_FORWARDED = 'not forwarded';

export const emptyTally = (): CallTally => ({ answered: 0, notForwarded: 0, indeterminate: 0, readRetries: 0 });

let attempts = 0;
const requestIdOf = () => `fp-${process.pid.toString(36)}-${(++attempts).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An attempt that met the harness's own outage got no answer because of it: a refused connection then is
 * indeterminate (it never reached the registry, but nothing is claimed), never a target that went away.
 */
function duringOwnOutage(faults: CallFaults, sent: number, err: unknown): unknown {
  if (!faults.outage?.overlaps(sent)) return err;
  if (err instanceof TargetUnreachable)
    return new IndeterminateOutcome(`${err.message}, while the harness's own fault had the target down`, { cause: err });
  return err;
}

/** Sends `call` under a fresh request id per attempt and classifies what came back. */
export async function classified<T>(
  faults: CallFaults,
  tally: CallTally,
  read: boolean,
  call: (requestId: string) => Promise<T>,
): Promise<T> {
  const started = performance.now();
  // A read's own time to be answered: the waits for the harness's own faults to heal do not count.
  let healing = 0;
  for (let backoff = 50; ; backoff = Math.min(backoff * 2, 2000)) {
    const requestId = requestIdOf();
    const sent = performance.now();
    let err: unknown;
    try {
      const value = await call(requestId);
      tally.answered++;
      return value;
    } catch (caught) {
      err = duringOwnOutage(faults, sent, caught);
    }
    if (!IndeterminateOutcome.is(err)) {
      tally.answered++;
      throw err;
    }
    const unsent = faults.notForwarded?.(requestId) === true;
    if (unsent) tally.notForwarded++;
    else tally.indeterminate++;
    if (faults.calledOff?.aborted) throw read ? new IndeterminateOutcome(err.message, { cause: err, read: true }) : err;
    // Sent again or given back, the call finds the target up: the outage it met is over, or it outlasted its bound.
    if (faults.outage?.overlaps(sent)) {
      const waitedFrom = performance.now();
      const healed = await faults.outage.over();
      healing += performance.now() - waitedFrom;
      if (read && healed) {
        tally.readRetries++;
        continue;
      }
      if (read) throw new IndeterminateOutcome(`${err.message} (the harness's own fault outlasted its bound)`, { cause: err, read: true });
    }
    const spent = performance.now() - started - healing;
    if (read && spent + backoff < (faults.readRetryMs ?? 0)) {
      tally.readRetries++;
      await sleep(backoff);
      continue;
    }
    if (read)
      throw new IndeterminateOutcome(`${err.message} (no answer for ${Math.round(performance.now() - started)} ms)`, {
        cause: err,
        read: true,
      });
    if (unsent) throw new NotForwarded(`${err.message}; the proxy reset it before forwarding: the registry never saw it`, { cause: err });
    // A lost connection may leave the registry still acting, unless the proxy saw its answer go by.
    if (err.mayStillActMs > 0 && faults.answeredThenLost?.(requestId) === true)
      throw new IndeterminateOutcome(err.message, { cause: err.cause });
    throw err;
  }
}

/** Records a resolve or settlement into the history, whatever its outcome, and passes the outcome on. */
export async function recorded<T>(
  history: Op[] | undefined,
  kind: OpKind,
  tenant: string,
  action: string,
  call: () => Promise<T>,
  view: (value: T) => Partial<Op>,
): Promise<T> {
  if (!history) return call();
  const op: Op = { client: 0, kind, tenant, action, invoke: performance.now(), complete: 0, type: 'ok' };
  history.push(op);
  try {
    const value = await call();
    Object.assign(op, view(value));
    return value;
  } catch (err) {
    Object.assign(op, outcomeOf(err));
    throw err;
  } finally {
    op.complete = performance.now();
  }
}

/**
 * A history's type for an error: indeterminate ops are info, and so is an answer too large to read (the registry
 * answered, nobody knows what); everything else the registry or the proxy settled is fail.
 */
export function outcomeOf(err: unknown): Pick<Op, 'type' | 'error' | 'actingUntil'> {
  if (err instanceof AnswerTooLarge) return { type: 'info', error: err.message };
  if (IndeterminateOutcome.is(err))
    return { type: 'info', error: err.message, ...(err.mayStillActMs > 0 ? { actingUntil: performance.now() + err.mayStillActMs } : {}) };
  if (NotForwarded.is(err)) return { type: 'fail', error: NOT_FORWARDED };
  return { type: 'fail', error: (err as { code?: string }).code ?? (err as Error).message };
}

export const resolvedView = (v: RouteView): Partial<Op> => ({ view: v });
