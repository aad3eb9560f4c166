// k6's executors on the Node runner's VU pool. Closed-model executors keep a
// fixed set of VUs looping; open-model ones start iterations on a schedule
// and drop those that find no free VU (dropped_iterations), initialising
// more VUs in the background up to maxVUs, as k6 does. Every scenario has a
// hard end (maxDuration or duration, plus gracefulStop) at which iterations
// still running are interrupted by stopping their VU. A scenario whose
// function is async runs on async VUs (local-vus.ts), any other on VU
// threads (vu-pool.ts).
import { ExecutionTuple } from '../execution-segments.ts';
import type { LocalVu, LocalVuPool } from './local-vus.ts';
import { hardEndMs, type ScenarioConfig } from './scenarios.ts';
import type { VirtualUser, VuPool } from './vu-pool.ts';
import { boardViews, closeBoard, completedOn, createBoard, publish, publishedOn, wakeFor } from './vu/arrival-board.js';

type AnyVu = VirtualUser | LocalVu;

/** Where a scenario takes its VUs from and gives them back. */
interface Vus<V extends AnyVu> {
  takeOrCreate(): Promise<V>;
  give(vu: V): void;
}

export interface ExecutorHost {
  /** The VU threads of the scenarios of synchronous functions. */
  pool: VuPool;
  /** The async VUs of the scenarios of async functions, when the script has any. */
  localPool: LocalVuPool | null;
  /** True when the scenario's function is async. */
  runsAsync(run: ScenarioRun): boolean;
  /** Milliseconds since the test (after setup) started. */
  now(): number;
  /** True once the test is aborted. */
  aborted(): boolean;
  /** Runs one iteration; resolves false when it failed or was interrupted. */
  iterate(vu: AnyVu, run: ScenarioRun, deadlineMs: number): Promise<boolean>;
  /** Puts `vu` on an arrival board until it leaves it; resolves false when the VU was stopped there. */
  claim(vu: VirtualUser, run: ScenarioRun, board: SharedArrayBuffer): Promise<boolean>;
  dropped(run: ScenarioRun): void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/**
 * How long before its clock starts the test tells its VUs when it starts and
 * puts the VUs of the arrival-rate scenarios that start with it on their
 * boards. Both are a message and a cross-thread wake-up per VU: done on the
 * clock, they kept the first turn of the arrival loop 5 to 8 ms late with
 * 40 VUs, which then published its first 26 to 40 arrivals at once.
 */
export const START_LEAD_MS = 50;

function isOpenModel(c: ScenarioConfig): boolean {
  return c.executor === 'constant-arrival-rate' || c.executor === 'ramping-arrival-rate';
}

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

  nextIteration(vu: AnyVu): { inInstance: number; inTest: number; inScenario: number } {
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

async function takeVus<V extends AnyVu>(pool: Vus<V>, count: number): Promise<V[]> {
  const vus: V[] = [];
  for (let i = 0; i < count; i++) vus.push(await pool.takeOrCreate());
  return vus;
}

/** per-vu-iterations, shared-iterations, constant-vus: each VU loops until its work or time is up. */
async function closedModel<V extends AnyVu>(host: ExecutorHost, run: ScenarioRun, pool: Vus<V>): Promise<void> {
  const c = run.config;
  const vus = await takeVus(pool, c.vus);
  const start = c.startTimeMs;
  const stopStartingAt = c.executor === 'constant-vus' ? start + c.durationMs : start + c.maxDurationMs;
  let shared = c.iterations;
  const loop = async (vu: V) => {
    let own = c.iterations;
    for (;;) {
      if (host.aborted() || host.now() >= stopStartingAt) break;
      if (c.executor === 'per-vu-iterations' && own-- <= 0) break;
      if (c.executor === 'shared-iterations' && shared-- <= 0) break;
      await host.iterate(vu, run, run.hardEnd);
      if (!vu.alive) break;
    }
    pool.give(vu);
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
 * constant-arrival-rate, ramping-arrival-rate. The scenario's VUs claim its
 * arrivals from a board in shared memory (vu/arrival-board.js); this loop
 * publishes each arrival when its time comes, against a free VU, or drops
 * it and counts it when every VU is busy or already promised one, starting
 * another VU for the next ones while fewer than maxVUs exist, as k6 does.
 * Each turn publishes every arrival due by now, so a loop woken late
 * (timers fire at millisecond granularity at best, later on a busy machine)
 * catches up in one turn instead of falling behind by a timer per arrival.
 * The clock has no arrival past the scenario's duration, and the loop ends
 * only once it has published or dropped every arrival before it, also
 * those a late turn reaches after the duration; past the hard end they are
 * dropped, as nothing may start then. What is still running after the
 * duration gets the graceful stop and no more: iterations are interrupted
 * at the hard end, and VUs still starting join the pool whenever they are
 * ready.
 */
async function openModel(host: ExecutorHost, run: ScenarioRun, clock: ArrivalClock): Promise<void> {
  const c = run.config;
  const buffer = createBoard(c.maxVUs);
  const board = boardViews(buffer);
  /** VUs on the board, each until it leaves it. */
  const members = new Map<VirtualUser, Promise<void>>();
  const join = (vu: VirtualUser) => {
    const left = host.claim(vu, run, buffer).then((stillAlive) => {
      members.delete(vu);
      if (stillAlive) host.pool.give(vu);
    });
    members.set(vu, left);
  };
  for (const vu of await takeVus(host.pool, c.preAllocatedVUs)) join(vu);
  let owned = members.size;
  await sleep(c.startTimeMs - host.now());
  run.state = 'running';
  let closed = false;
  const startVu = () => {
    owned++;
    host.pool.takeOrCreate().then(
      (vu) => (!closed ? join(vu) : host.pool.give(vu)),
      () => owned--,
    );
  };
  let n = 0;
  // A split test's instance runs the arrivals of its stripe, at their times in the whole test.
  let next = clock(run.tuple.globalIndex(0));
  while (next !== null && !host.aborted()) {
    const now = host.now();
    let published = 0;
    while (next !== null && c.startTimeMs + next <= now) {
      if (now < run.hardEnd && publish(board, run.tuple.globalIndex(publishedOn(board)), run.progressAt(now))) published++;
      else {
        host.dropped(run);
        if (owned < c.maxVUs) startVu();
      }
      next = clock(run.tuple.globalIndex(++n));
    }
    wakeFor(board, published);
    run.started = publishedOn(board);
    run.completed = completedOn(board);
    if (next !== null) await sleep(c.startTimeMs + next - host.now());
  }
  closed = true;
  closeBoard(board);
  await gracefulStop(host, run, members);
  run.started = publishedOn(board);
  run.completed = completedOn(board);
}

/**
 * constant-arrival-rate, ramping-arrival-rate on async VUs. Every VU lives
 * in this thread, so each arrival due starts its iteration here at once on
 * a free VU, or is dropped and counted when every VU is busy, a VU being
 * added for the next ones while fewer than maxVUs exist. The turns of the
 * loop and the end are openModel's; an iteration still running at the hard
 * end is interrupted by host.iterate's deadline.
 */
async function localArrivals(host: ExecutorHost, run: ScenarioRun, pool: LocalVuPool, clock: ArrivalClock): Promise<void> {
  const c = run.config;
  const idle = await takeVus(pool, c.preAllocatedVUs);
  let owned = idle.length;
  const running = new Set<Promise<void>>();
  const start = (vu: LocalVu) => {
    const done: Promise<void> = host.iterate(vu, run, run.hardEnd).then(() => {
      running.delete(done);
      if (vu.alive) idle.push(vu);
      else owned--;
    });
    running.add(done);
  };
  await sleep(c.startTimeMs - host.now());
  run.state = 'running';
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
          idle.push(await pool.takeOrCreate());
        }
      }
      next = clock(run.tuple.globalIndex(++n));
    }
    if (next !== null) await sleep(c.startTimeMs + next - host.now());
  }
  await Promise.all(running);
  for (const vu of idle) pool.give(vu);
}

/**
 * Waits for the VUs to leave the board until the scenario's hard end, and
 * interrupts those still in an iteration then: the scenario ends with none
 * of its iterations running.
 */
async function gracefulStop(host: ExecutorHost, run: ScenarioRun, members: Map<VirtualUser, Promise<void>>): Promise<void> {
  if (members.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const hardEnd = new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, run.hardEnd - host.now()))));
  try {
    while (members.size > 0 && host.now() < run.hardEnd) await Promise.race([hardEnd, ...members.values()]);
  } finally {
    clearTimeout(timer);
  }
  const left = [...members];
  for (const [vu] of left) if (vu.running) run.interrupted++;
  await Promise.all(left.map(([vu, gone]) => vu.stop().then(() => gone)));
}

export async function runScenario(host: ExecutorHost, run: ScenarioRun): Promise<void> {
  const c = run.config;
  // One that starts with the test takes its VUs in the test's lead (START_LEAD_MS); any other at its start,
  // when the VUs of scenarios before it may be free again.
  const takesVusEarly = isOpenModel(c) && c.startTimeMs === 0;
  if (!takesVusEarly) await sleep(c.startTimeMs - host.now());
  if (host.aborted()) {
    run.state = 'done';
    return;
  }
  if (!isOpenModel(c)) run.state = 'running';
  const local = host.runsAsync(run) ? host.localPool : null;
  if (host.runsAsync(run) && !local) throw new Error(`scenario ${c.name}: its function is async, and the runner has no async VUs`);
  if (isOpenModel(c)) {
    const clock = c.executor === 'constant-arrival-rate' ? constantArrivals(c) : rampingArrivals(c);
    await (local ? localArrivals(host, run, local, clock) : openModel(host, run, clock));
  } else await closedModel<AnyVu>(host, run, local ?? host.pool);
  run.state = 'done';
}
