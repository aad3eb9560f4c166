// Time in the registry is whole milliseconds since the epoch; the wire form is
// RFC 3339 UTC with exactly three fractional digits (spec.md [wire-timestamps]).

export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

let lastMs = Number.NaN;
let lastTimestamp = '';

/** RFC 3339 form of `ms`; consecutive calls within one millisecond share the string. */
export function toTimestamp(ms: number): string {
  if (ms !== lastMs) {
    lastTimestamp = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastTimestamp;
}

/** Parses a wire timestamp already validated by the schema. */
export function fromTimestamp(ts: string): number {
  return Date.parse(ts);
}

/** A clock that only moves when told to, for deterministic tests. */
export class ManualClock {
  constructor(private ms: number) {}
  readonly now: Clock = () => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}
