// A nemesis breaks something on a schedule and heals it again, after
// Jepsen: fault for a few seconds, heal, wait until the registry is ready,
// stay quiet, repeat. Every loop is bounded in count and time, and the heal
// runs whatever happens — on a clean end, on an error, on Ctrl-C — and the
// log says so. The timeline it returns is what a report plots. While one of
// its faults is in effect (from the injection until the registry is ready
// again after the heal) the harness's calls know the target is down by its
// own doing (`outage`): they wait for the heal instead of ending the run.
import { seededRandom } from '../../client/seeded-random.ts';
import type { OwnOutage } from '../../properties/targets/http/call-outcomes.ts';
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
  /** When the schedule has the registry down, and when it is back. */
  readonly outage: OwnOutage;
}

export interface NemesisStart {
  /** When the schedule may start breaking things; at once otherwise. */
  armed?: Promise<void>;
  /**
   * Moves the moment each fault falls: each quiet period is drawn between half and one and a half times the
   * schedule's, and the first fault is drawn among the faults. Without it, the schedule's exact rhythm.
   */
  seed?: number;
}

/**
 * How long one fault may keep the registry down past its own duration: its
 * heal (a process started again, a database brought back) and the wait for
 * readiness after it, which the schedule bounds on its own.
 */
const HEAL_ALLOWANCE_MS = 120_000;

/** The quiet before fault n and the fault it is: the rhythm, moved by the seed when there is one. */
function rhythm(schedule: Schedule, faults: number, seed: number | undefined): { quietMs: () => number; first: number } {
  if (seed === undefined) return { quietMs: () => schedule.quietMs, first: 0 };
  const random = seededRandom(seed);
  const first = Math.floor(random() * faults);
  return { quietMs: () => Math.round(schedule.quietMs * (0.5 + random())), first };
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
  start: NemesisStart = {},
): NemesisRun {
  const controller = new AbortController();
  const signal = controller.signal;
  const bands: FaultBand[] = [];
  const startedAt = performance.now();
  const at = () => Math.round(performance.now() - startedAt);
  const armed = start.armed ?? Promise.resolve();
  const { quietMs, first } = rhythm(schedule, faults.length, start.seed);
  let broken: Fault | null = null;
  let stopping: Promise<FaultBand[]> | null = null;
  const down = downTime(schedule);

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
      await pause(quietMs(), signal);
      if (signal.aborted || at() - armedAt > schedule.maxDurationMs) return;
      const fault = faults[(first + n) % faults.length]!;
      const band: FaultBand = { fault: fault.name, start: at(), end: at(), recovery_ms: null, error: null };
      bands.push(band);
      down.begin();
      try {
        log(`nemesis: ${fault.name} fault`);
        broken = fault;
        await fault.inject();
        await pause(schedule.faultMs, signal);
      } catch (err) {
        band.error = (err as Error).message;
        throw err;
      } finally {
        await heal(fault, band)
          .catch((err: Error) => {
            band.error ??= err.message;
            throw err;
          })
          .finally(down.end);
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
    outage: down.outage,
    stop() {
      stopping ??= finish();
      return stopping;
    },
  };

  async function finish(): Promise<FaultBand[]> {
    controller.abort();
    const err = await ended;
    // The loop heals what it broke; this is the last line of defence if it could not.
    if (broken) await (broken as Fault).heal().finally(down.end);
    log(`nemesis: stopped after ${bands.length} fault(s); nothing is left broken`);
    if (err) throw new Error(`the nemesis could not run its schedule: ${err.message}`, { cause: err });
    return bands;
  }
}

/** The spans the schedule has the registry down: from an injection until the registry is ready after its heal. */
function downTime(schedule: Schedule) {
  let inEffect = false;
  let clearedAt = -Infinity;
  let cleared = Promise.resolve();
  let clear = () => {};
  const boundMs = schedule.faultMs + HEAL_ALLOWANCE_MS + schedule.readyTimeoutMs;
  const outage: OwnOutage = {
    overlaps: (since) => inEffect || clearedAt >= since,
    over: () => {
      if (!inEffect) return Promise.resolve(true);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), boundMs)));
      return Promise.race([cleared.then(() => true), late]).finally(() => clearTimeout(timer));
    },
  };
  return {
    outage,
    begin() {
      inEffect = true;
      cleared = new Promise<void>((resolve) => (clear = resolve));
    },
    end() {
      if (!inEffect) return;
      inEffect = false;
      clearedAt = performance.now();
      clear();
    },
  };
}
