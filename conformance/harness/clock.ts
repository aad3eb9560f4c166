// The target's clock as the harness estimates it. Leases and circuits are
// judged by the registry's "now", so every lease a case writes is placed
// relative to the server's time, with margins of minutes (leases) or
// hundreds of milliseconds (circuits) far above the estimate's error.
// Where a short period cannot have such margins (a circuit that must still be
// open, or already closed, when a request arrives), the case judges each
// request by when the target can have handled it, and a request that may
// have landed on the other side of the instant proves nothing.
import type { Exchange } from './exchange.ts';
import { ConformanceFailure, HarnessError } from './failure.ts';

export class ServerClock {
  constructor(
    /** Server time minus local time, in milliseconds. */
    readonly offsetMs: number,
    /** How the offset was measured, for the report. */
    readonly source: string,
    /** Half the round trip of the measurement: the offset's uncertainty. */
    readonly uncertaintyMs: number,
  ) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** An RFC 3339 timestamp `deltaMs` from the server's now, with millisecond precision. */
  at(deltaMs: number): string {
    return new Date(Math.round(this.now() + deltaMs)).toISOString();
  }

  /** Local milliseconds to wait until the server's clock reads `serverMs`. */
  until(serverMs: number): number {
    return Math.max(0, serverMs - this.now());
  }
}

/** When, on the target's clock, it can have handled a request: between sending and answer, widened by the clock's uncertainty. */
export function handledWindow(clock: ServerClock, exchange: Exchange): { earliest: number; latest: number } {
  const sent = Date.parse(exchange.started_at);
  return {
    earliest: sent + clock.offsetMs - clock.uncertaintyMs,
    latest: sent + exchange.duration_ms + clock.offsetMs + clock.uncertaintyMs,
  };
}

/**
 * Runs `check`, an expectation about a reply that holds only if the target
 * handled the request `side` the server-clock instant `instantMs`. When the
 * expectation fails but the request may have been handled on the other side
 * (its latency and the clock's uncertainty straddle the instant), the case
 * cannot judge: a HarnessError, never a failure.
 */
export function expectHandled<T>(
  clock: ServerClock,
  exchange: Exchange,
  side: 'before' | 'after',
  instantMs: number,
  what: string,
  check: () => T,
): T {
  try {
    return check();
  } catch (err) {
    if (!ConformanceFailure.is(err)) throw err;
    const { earliest, latest } = handledWindow(clock, exchange);
    const certain = side === 'before' ? latest < instantMs : earliest > instantMs;
    if (certain) throw err;
    const instant = new Date(instantMs).toISOString();
    throw new HarnessError(
      `${what} had to be handled ${side} ${instant} on the target's clock, but it may have been handled between ` +
        `${new Date(earliest).toISOString()} and ${new Date(latest).toISOString()} (latency ${exchange.duration_ms} ms, clock ±${clock.uncertaintyMs} ms); ` +
        `the target is too slow to judge this (${err.message})`,
    );
  }
}

/** Estimates the offset from a server timestamp read between two local instants. */
export function clockFrom(serverTimestamp: string | undefined, sentAtMs: number, receivedAtMs: number, source: string): ServerClock {
  const serverMs = serverTimestamp === undefined ? Number.NaN : Date.parse(serverTimestamp);
  if (!Number.isFinite(serverMs)) return new ServerClock(0, 'local clock (the target reported no usable time)', Number.POSITIVE_INFINITY);
  const midpoint = (sentAtMs + receivedAtMs) / 2;
  return new ServerClock(Math.round(serverMs - midpoint), source, Math.ceil((receivedAtMs - sentAtMs) / 2));
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
