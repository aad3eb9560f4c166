// The target's clock as the harness estimates it. Leases and circuits are
// judged by the registry's "now", so every lease a case writes is placed
// relative to the server's time, with margins of minutes (leases) or
// hundreds of milliseconds (circuits) far above the estimate's error.

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

/** Estimates the offset from a server timestamp read between two local instants. */
export function clockFrom(serverTimestamp: string | undefined, sentAtMs: number, receivedAtMs: number, source: string): ServerClock {
  const serverMs = serverTimestamp === undefined ? Number.NaN : Date.parse(serverTimestamp);
  if (!Number.isFinite(serverMs)) return new ServerClock(0, 'local clock (the target reported no usable time)', Number.POSITIVE_INFINITY);
  const midpoint = (sentAtMs + receivedAtMs) / 2;
  return new ServerClock(Math.round(serverMs - midpoint), source, Math.ceil((receivedAtMs - sentAtMs) / 2));
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
