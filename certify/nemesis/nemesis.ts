// A nemesis breaks something on a schedule and heals it again, after
// Jepsen: fault for a few seconds, heal, wait until the registry is ready,
// stay quiet, repeat. Every loop is bounded in count and time, and the heal
// runs whatever happens — on a clean end, on an error, on Ctrl-C — and the
// log says so. The timeline it returns is what a report plots.
import { waitUntilReady } from './ready.ts';

/** One thing that can be broken and mended. */
export interface Fault {
  /** e.g. `proxy`, `storage`, `pg-terminate`. */
  name: string;
  inject(): Promise<void>;
  heal(): Promise<void>;
}

export interface Schedule {
  faultMs: number;
  quietMs: number;
  /** No more faults than this… */
  maxFaults: number;
  /** …and none starting this long after the schedule is armed (set-up before it does not count). */
  maxDurationMs: number;
  /** How long a heal may take to make the registry ready again. */
  readyTimeoutMs: number;
}

export const DEFAULT_SCHEDULE: Schedule = {
  faultMs: 3000,
  quietMs: 5000,
  maxFaults: 50,
  maxDurationMs: 10 * 60_000,
  readyTimeoutMs: 60_000,
};

export interface FaultBand {
  fault: string;
  /** Milliseconds since the schedule started. */
  start: number;
  end: number;
  /** From the heal until GET /ready answered 200. */
  recovery_ms: number | null;
  error: string | null;
}

export interface NemesisRun {
  /** Stops the schedule, heals whatever is broken, and returns the timeline. */
  stop(): Promise<FaultBand[]>;
  readonly bands: readonly FaultBand[];
  readonly startedAt: number;
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

/**
 * Runs faults round robin on the schedule, from when `armed` resolves, until
 * stopped or its bounds are reached. `readyUrl` is the registry itself,
 * never the proxy in front of it.
 */
export function startNemesis(
  faults: readonly Fault[],
  schedule: Schedule,
  readyUrl: string,
  log: (line: string) => void,
  armed: Promise<void> = Promise.resolve(),
): NemesisRun {
  const controller = new AbortController();
  const signal = controller.signal;
  const bands: FaultBand[] = [];
  const startedAt = performance.now();
  const at = () => Math.round(performance.now() - startedAt);
  let broken: Fault | null = null;
  let stopping: Promise<FaultBand[]> | null = null;

  async function heal(fault: Fault, band: FaultBand): Promise<void> {
    try {
      await fault.heal();
    } finally {
      broken = null;
      band.end = at();
      log(`nemesis: healed ${fault.name} after ${band.end - band.start} ms`);
    }
    const recovery = await waitUntilReady(readyUrl, schedule.readyTimeoutMs);
    band.recovery_ms = recovery;
    log(`nemesis: the registry was ready ${recovery} ms after the heal`);
  }

  const loop = (async () => {
    // Nothing breaks before the body says it is under way (or the schedule is stopped first).
    await Promise.race([armed, new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))]);
    // Bands stay timed from the start, as the proxy times its traffic; the bound counts from here.
    const armedAt = at();
    for (let n = 0; n < schedule.maxFaults && faults.length > 0; n++) {
      await pause(schedule.quietMs, signal);
      if (signal.aborted || at() - armedAt > schedule.maxDurationMs) return;
      const fault = faults[n % faults.length]!;
      const band: FaultBand = { fault: fault.name, start: at(), end: at(), recovery_ms: null, error: null };
      bands.push(band);
      try {
        log(`nemesis: ${fault.name} fault`);
        broken = fault;
        await fault.inject();
        await pause(schedule.faultMs, signal);
      } catch (err) {
        band.error = (err as Error).message;
        throw err;
      } finally {
        await heal(fault, band).catch((err: Error) => {
          band.error ??= err.message;
          throw err;
        });
      }
    }
  })();
  // An error ends the schedule; stop() reports it.
  const ended = loop.then(
    () => null,
    (err: Error) => err,
  );

  return {
    bands,
    startedAt,
    stop() {
      stopping ??= finish();
      return stopping;
    },
  };

  async function finish(): Promise<FaultBand[]> {
    controller.abort();
    const err = await ended;
    // The loop heals what it broke; this is the last line of defence if it could not.
    if (broken) await (broken as Fault).heal();
    log(`nemesis: stopped after ${bands.length} fault(s); nothing is left broken`);
    if (err) throw new Error(`the nemesis could not run its schedule: ${err.message}`, { cause: err });
    return bands;
  }
}
