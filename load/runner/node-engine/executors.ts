// k6's executors on the Node runner's VU pool. Closed-model executors keep a
// fixed set of VUs looping; open-model ones start iterations on a schedule
// and drop those that find no free VU (dropped_iterations), initialising
// more VUs in the background up to maxVUs, as k6 does. Every scenario has a
// hard end (maxDuration or duration, plus gracefulStop) at which iterations
// still running are interrupted by stopping their VU thread.
import { ExecutionTuple } from '../execution-segments.ts';
import { hardEndMs, type ScenarioConfig } from './scenarios.ts';
import type { VirtualUser, VuPool } from './vu-pool.ts';

export interface ExecutorHost {
  pool: VuPool;
  /** Milliseconds since the test (after setup) started. */
  now(): number;
  /** True once the test is aborted. */
  aborted(): boolean;
  /** Runs one iteration; resolves false when it failed or was interrupted. */
  iterate(vu: VirtualUser, run: ScenarioRun, deadlineMs: number): Promise<boolean>;
  /** Interrupts now every iteration racing `deadlineMs` (the clock has passed it). */
  interruptAt(deadlineMs: number): void;
  dropped(run: ScenarioRun): void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** A loop that turns again within this long looks at the VUs' cells itself, so VUs ending iterations need not wake it. */
const COLLECTS_WITHIN_MS = 3;
/** How late past its timer such a loop may turn before VUs wake it again. */
const TURN_SLACK_MS = 2;

export class ScenarioRun {
  /** Iterations started, which numbers the next one (iterationInInstance/InTest). */
  started = 0;
  completed = 0;
  interrupted = 0;
  dropped = 0;
  /** Per-VU iteration counts within this scenario (__ITER). */
  readonly perVu = new Map<number, number>();
  state: 'waiting' | 'running' | 'done' = 'waiting';
  /** Iterations in flight, which the graceful stop waits for. */
  readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    readonly config: ScenarioConfig,
    /** This instance's share of a split test; numbers its iterations in the whole test. */
    readonly tuple: ExecutionTuple = ExecutionTuple.full(),
  ) {}

  nextIteration(vu: VirtualUser): { inInstance: number; inTest: number; inScenario: number } {
    const inScenario = this.perVu.get(vu.id) ?? 0;
    this.perVu.set(vu.id, inScenario + 1);
    const inInstance = this.started++;
    return { inInstance, inTest: this.tuple.globalIndex(inInstance), inScenario };
  }

  get hardEnd(): number {
    return hardEndMs(this.config);
  }

  track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }
}

async function takeVus(host: ExecutorHost, count: number): Promise<VirtualUser[]> {
  const vus: VirtualUser[] = [];
  for (let i = 0; i < count; i++) vus.push(await host.pool.takeOrCreate());
  return vus;
}

/** per-vu-iterations, shared-iterations, constant-vus: each VU loops until its work or time is up. */
async function closedModel(host: ExecutorHost, run: ScenarioRun): Promise<void> {
  const c = run.config;
  const vus = await takeVus(host, c.vus);
  const start = c.startTimeMs;
  const stopStartingAt = c.executor === 'constant-vus' ? start + c.durationMs : start + c.maxDurationMs;
  let shared = c.iterations;
  const loop = async (vu: VirtualUser) => {
    let own = c.iterations;
    for (;;) {
      if (host.aborted() || host.now() >= stopStartingAt) break;
      if (c.executor === 'per-vu-iterations' && own-- <= 0) break;
      if (c.executor === 'shared-iterations' && shared-- <= 0) break;
      await run.track(host.iterate(vu, run, run.hardEnd));
      if (!vu.alive) break;
    }
    host.pool.give(vu);
  };
  await Promise.all(vus.map(loop));
}

/** The start time (ms after the scenario start) of arrival number n, or null past the end. */
type ArrivalClock = (n: number) => number | null;

function constantArrivals(c: ScenarioConfig): ArrivalClock {
  const every = c.timeUnitMs / c.rate;
  return (n) => (c.rate > 0 && n * every < c.durationMs ? n * every : null);
}

/** Arrival n happens when the integral of the rate over time reaches n. */
function rampingArrivals(c: ScenarioConfig): ArrivalClock {
  const segments: { from: number; to: number; start: number; duration: number; before: number }[] = [];
  let rate = c.startRate / c.timeUnitMs;
  let t = 0;
  let area = 0;
  for (const s of c.stages) {
    const to = s.target / c.timeUnitMs;
    segments.push({ from: rate, to, start: t, duration: s.durationMs, before: area });
    area += ((rate + to) / 2) * s.durationMs;
    t += s.durationMs;
    rate = to;
  }
  return (n) => {
    for (const seg of segments) {
      const inSegment = ((seg.from + seg.to) / 2) * seg.duration;
      if (n < seg.before + inSegment || (n === 0 && inSegment > 0)) {
        const need = n - seg.before;
        const slope = (seg.to - seg.from) / Math.max(seg.duration, 1e-9);
        // Solve from*x + slope*x²/2 = need for x in [0, duration].
        const x = Math.abs(slope) < 1e-12 ? need / seg.from : (-seg.from + Math.sqrt(seg.from * seg.from + 2 * slope * need)) / slope;
        return seg.start + Math.min(Math.max(x, 0), seg.duration);
      }
    }
    return null;
  };
}

/** How long a scenario starts iterations, before its graceful stop. */
function activeMs(c: ScenarioConfig): number {
  return c.executor === 'ramping-arrival-rate' ? c.stages.reduce((n, st) => n + st.durationMs, 0) : c.durationMs;
}

/**
 * constant-arrival-rate, ramping-arrival-rate. Each turn of the loop starts
 * every arrival that is due by now, so a loop woken late (timers fire at
 * millisecond granularity at best, later on a busy machine) catches up in
 * one turn instead of falling behind by a timer per arrival; an arrival that
 * finds no free VU is dropped and counted, and a VU is started for the
 * next ones while fewer than maxVUs exist, as k6 does. No arrival starts
 * after the scenario's duration, and what is still running then gets the
 * graceful stop and no more: iterations are interrupted at the hard end,
 * and VUs still starting join the pool whenever they are ready.
 */
async function openModel(host: ExecutorHost, run: ScenarioRun, clock: ArrivalClock): Promise<void> {
  const c = run.config;
  const end = c.startTimeMs + activeMs(c);
  const idle = await takeVus(host, c.preAllocatedVUs);
  let owned = idle.length;
  const startVu = () => {
    owned++;
    host.pool.takeOrCreate().then(
      (vu) => (host.now() < end && !host.aborted() ? idle.push(vu) : host.pool.give(vu)),
      () => owned--,
    );
  };
  const begin = (vu: VirtualUser) =>
    void run.track(
      host.iterate(vu, run, run.hardEnd).then(() => {
        if (vu.alive) idle.push(vu);
        else owned--;
      }),
    );
  let n = 0;
  // A split test's instance runs the arrivals of its stripe, at their times in the whole test.
  let next = clock(run.tuple.globalIndex(0));
  while (next !== null && !host.aborted()) {
    // Iterations that ended in their cells, and what their promises run after, before arrivals look for free VUs.
    host.pool.collect();
    await new Promise((r) => setImmediate(r));
    const now = host.now();
    if (now >= end) break;
    while (next !== null && c.startTimeMs + next <= now) {
      const vu = idle.pop();
      if (vu) begin(vu);
      else {
        host.dropped(run);
        if (owned < c.maxVUs) startVu();
      }
      next = clock(run.tuple.globalIndex(++n));
    }
    if (next !== null) {
      const wait = Math.min(c.startTimeMs + next, end) - host.now();
      host.pool.promiseCollect(run, wait <= COLLECTS_WITHIN_MS ? Date.now() + Math.max(0, wait) + TURN_SLACK_MS : null);
      await sleep(wait);
    }
  }
  host.pool.promiseCollect(run, null);
  await gracefulStop(host, run);
  for (const vu of idle) host.pool.give(vu);
  idle.length = 0;
}

/**
 * Waits for the iterations still running until the scenario's hard end, and
 * interrupts those still running then. Their deadline's own timer is due at
 * the same instant but may be served after this one: the interruption does
 * not wait for it, so the scenario ends with none of its iterations running.
 */
async function gracefulStop(host: ExecutorHost, run: ScenarioRun): Promise<void> {
  if (run.inFlight.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const hardEnd = new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, run.hardEnd - host.now()))));
  try {
    while (run.inFlight.size > 0 && host.now() < run.hardEnd) await Promise.race([hardEnd, ...run.inFlight]);
  } finally {
    clearTimeout(timer);
  }
  if (run.inFlight.size === 0) return;
  host.interruptAt(run.hardEnd);
  await Promise.all(run.inFlight);
}

export async function runScenario(host: ExecutorHost, run: ScenarioRun): Promise<void> {
  await sleep(run.config.startTimeMs - host.now());
  if (host.aborted()) {
    run.state = 'done';
    return;
  }
  run.state = 'running';
  const c = run.config;
  if (c.executor === 'constant-arrival-rate') await openModel(host, run, constantArrivals(c));
  else if (c.executor === 'ramping-arrival-rate') await openModel(host, run, rampingArrivals(c));
  else await closedModel(host, run);
  run.state = 'done';
}
