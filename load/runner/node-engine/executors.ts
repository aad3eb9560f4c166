// k6's executors on the Node runner's VUs (virtual-users.ts). Closed-model
// executors keep a fixed set of VUs looping; open-model ones start
// iterations on a schedule and drop those that find no free VU
// (dropped_iterations), adding VUs for the next ones up to maxVUs, as k6
// does. Every scenario has a hard end (maxDuration or duration, plus
// gracefulStop) at which iterations still running are interrupted by
// stopping their VU (host.iterate's deadline).
import { ExecutionTuple } from '../execution-segments.ts';
import { hardEndMs, isArrivalRate, type ScenarioConfig } from './scenarios.ts';
import type { VirtualUser, VuPool } from './virtual-users.ts';

export interface ExecutorHost {
  pool: VuPool;
  /** Milliseconds since the test (after setup) started. */
  now(): number;
  /** True once the test is aborted. */
  aborted(): boolean;
  /** Runs one iteration; resolves false when it failed or was interrupted. */
  iterate(vu: VirtualUser, run: ScenarioRun, deadlineMs: number): Promise<boolean>;
  dropped(run: ScenarioRun): void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

export class ScenarioRun {
  /** Iterations started, which numbers the next one (iterationInInstance/InTest). */
  started = 0;
  completed = 0;
  interrupted = 0;
  dropped = 0;
  /** Per-VU iteration counts within this scenario (__ITER). */
  readonly perVu = new Map<number, number>();
  state: 'waiting' | 'running' | 'done' = 'waiting';

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

  /** exec.scenario.progress of an iteration starting at `nowMs` (test time). */
  progressAt(nowMs: number): number {
    const c = this.config;
    return Math.min(1, (nowMs - c.startTimeMs) / Math.max(1, this.hardEnd - c.gracefulStopMs - c.startTimeMs));
  }
}

function takeVus(pool: VuPool, count: number): VirtualUser[] {
  return Array.from({ length: count }, () => pool.take());
}

/** per-vu-iterations, shared-iterations, constant-vus: each VU loops until its work or time is up. */
async function closedModel(host: ExecutorHost, run: ScenarioRun): Promise<void> {
  const c = run.config;
  const vus = takeVus(host.pool, c.vus);
  const stopStartingAt = c.startTimeMs + (c.executor === 'constant-vus' ? c.durationMs : c.maxDurationMs);
  let shared = c.iterations;
  const loop = async (vu: VirtualUser) => {
    let own = c.iterations;
    for (;;) {
      if (host.aborted() || host.now() >= stopStartingAt) break;
      if (c.executor === 'per-vu-iterations' && own-- <= 0) break;
      if (c.executor === 'shared-iterations' && shared-- <= 0) break;
      await host.iterate(vu, run, run.hardEnd);
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

/**
 * constant-arrival-rate, ramping-arrival-rate. Each turn of this loop
 * starts every arrival due by now on a free VU, or drops it and counts it
 * when every VU is busy, adding a VU for the next ones while fewer than
 * maxVUs exist, as k6 does. A turn woken late (timers fire at millisecond
 * granularity at best, later on a busy machine or while a VU's code holds
 * the thread) catches up at once instead of falling behind by a timer per
 * arrival. The clock has no arrival past the scenario's duration, and the
 * loop ends only once it has started or dropped every arrival before it,
 * also those a late turn reaches after the duration; past the hard end they
 * are dropped, as nothing may start then. So every arrival is run or
 * counted, and the parts of a split test add up to the whole test. An
 * iteration still running at the hard end is interrupted by host.iterate's
 * deadline.
 */
async function openModel(host: ExecutorHost, run: ScenarioRun, clock: ArrivalClock): Promise<void> {
  const c = run.config;
  const idle = takeVus(host.pool, c.preAllocatedVUs);
  let owned = idle.length;
  const running = new Set<Promise<void>>();
  const start = (vu: VirtualUser) => {
    const done: Promise<void> = host.iterate(vu, run, run.hardEnd).then(() => {
      running.delete(done);
      if (vu.alive) idle.push(vu);
      else owned--;
    });
    running.add(done);
  };
  let n = 0;
  // A split test's instance runs the arrivals of its stripe, at their times in the whole test.
  let next = clock(run.tuple.globalIndex(0));
  while (next !== null && !host.aborted()) {
    const now = host.now();
    while (next !== null && c.startTimeMs + next <= now) {
      const vu = now < run.hardEnd ? idle.pop() : undefined;
      if (vu) start(vu);
      else {
        host.dropped(run);
        if (owned < c.maxVUs) {
          owned++;
          idle.push(host.pool.take());
        }
      }
      next = clock(run.tuple.globalIndex(++n));
    }
    if (next !== null) await sleep(c.startTimeMs + next - host.now());
  }
  await Promise.all(running);
  for (const vu of idle) host.pool.give(vu);
}

export async function runScenario(host: ExecutorHost, run: ScenarioRun): Promise<void> {
  const c = run.config;
  // A scenario takes its VUs at its start, when those of scenarios before it may be free again.
  await sleep(c.startTimeMs - host.now());
  if (!host.aborted()) {
    run.state = 'running';
    if (isArrivalRate(c)) await openModel(host, run, c.executor === 'constant-arrival-rate' ? constantArrivals(c) : rampingArrivals(c));
    else await closedModel(host, run);
  }
  run.state = 'done';
}
