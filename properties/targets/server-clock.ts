// The clock of a registry the harness cannot drive. The suites never ask what
// time it is there; they ask for a window that surely contains the instant a
// call took effect, from the local clock plus a measured offset and its error
// bound. Fleet status carries the registry's `observed_at`, which is how the
// offset is measured.
import type { TimeWindow } from './target.ts';
import { settled, type TargetClock } from './target.ts';

/** Added to the measured error: millisecond rounding on both sides plus scheduling jitter. */
const SAFETY_MS = 5;
const POLL_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ServerClock implements TargetClock {
  readonly manual = false;

  constructor(
    /** Registry time minus local time. */
    private readonly offsetMs: number,
    /** How far the true offset may be from offsetMs. */
    private readonly errorMs: number,
  ) {}

  /** Measures the offset from the sample with the shortest round trip. */
  static async calibrate(observedAt: () => Promise<string>, samples = 5): Promise<ServerClock> {
    let best: { offset: number; error: number } | undefined;
    for (let i = 0; i < samples; i++) {
      const before = Date.now();
      const remote = Date.parse(await observedAt());
      const after = Date.now();
      const sample = { offset: remote - (before + after) / 2, error: (after - before) / 2 };
      if (!best || sample.error < best.error) best = sample;
    }
    return new ServerClock(Math.round(best!.offset), Math.ceil(best!.error) + SAFETY_MS);
  }

  async around<T>(call: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; window: TimeWindow }> {
    const lo = Date.now() + this.offsetMs - this.errorMs;
    const result = await settled(call);
    const hi = Date.now() + this.offsetMs + this.errorMs;
    return { result, window: { lo, hi } };
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(): void {
    throw new Error('the registry keeps its own time; a suite can only wait for it to pass');
  }

  async waitUntil(ms: number): Promise<void> {
    for (;;) {
      const surelyNow = Date.now() + this.offsetMs - this.errorMs;
      if (surelyNow >= ms) return;
      await sleep(Math.min(ms - surelyNow + 1, POLL_MS * 10));
    }
  }
}
