// The VU threads of the Node runner. Each VU is a worker thread running
// vu/vu-worker.js. Iterations are handed over and seen ending through cells
// of memory the two threads share (vu/control-cells.js); other calls travel
// as messages. A VU posts its HTTP work through its own MessageChannel and
// waits on a shared flag, which this side raises once undici has answered.
// A VU runs one call at a time; the pool hands free VUs to scenarios and takes them back, so
// scenarios that do not overlap share VUs as in k6.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { HttpService, WireRequest } from './http-service.ts';
import type { Sample } from './metrics.ts';
import type {} from './vu/checked-modules.ts';
import { CELL, CELLS_BYTES, DONE, FLOAT, IDLE, POLLED_UNTIL, RUNNING } from './vu/control-cells.js';
import { BOARD, boardViews, enlist } from './vu/arrival-board.js';
import { packResponse } from './vu/wire-response.js';
import { expandSamples, type RequestRecord } from './vu/request-samples.js';
import { VuFreeList } from './vu-free-list.ts';

const WORKER_URL = new URL('./vu/vu-worker.js', import.meta.url);

/** The script as written (open() resolves against it) and the staged copy the VU imports. */
export interface ScriptFiles {
  scriptPath: string;
  modulePath: string;
}

export interface CallResult {
  result: unknown;
  error: string | null;
  aborted: string | null;
  ms: number;
}

export interface ScriptFacts {
  options: Record<string, unknown>;
  functions: string[];
  /** The exported functions declared async: they run on async VUs (local-vus.ts). */
  asyncFunctions: string[];
  metrics: { name: string; type: Sample['type']; time: boolean }[];
}

/** A scenario's part of every iteration, posted to a VU once (vu-worker.js's Bind). */
export interface IterationBind {
  id: number;
  fn: string;
  arg: unknown;
  scenario: { name: string; executor: string; startTime: number; tags: Record<string, string> };
  group: string;
}

/** An iteration's own numbers, written to the cells. */
export interface IterationNumbers {
  inScenario: number;
  inInstance: number;
  inTest: number;
  progress: number;
}

/** The pool's promise to look at its VUs' cells (control-cells.js, POLLED_UNTIL). */
export interface PollClock {
  cells: Int32Array;
  base: number;
}

/** What a VU reports while it claims a board's arrivals. */
export interface ClaimSinks {
  /** An iteration threw, or aborted the test. */
  failed(error: string | null, aborted: string | null): void;
}

/** A VU's numbers when it leaves a board, or null when it was stopped on it. */
export type ClaimEnd = { iterationInScenario: number } | null;

interface Claiming {
  board: SharedArrayBuffer;
  sinks: ClaimSinks;
  settle: (end: ClaimEnd) => void;
}

export interface VuSinks {
  samples(samples: Sample[]): void;
  console(level: string, text: string): void;
}

export class VirtualUser {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag: Int32Array;
  private readonly floats: Float64Array;
  /** Aborts the requests in flight for this VU when it is stopped: an interrupted iteration's requests are cancelled, as in k6. */
  private readonly cancel = new AbortController();
  private pending: ((r: CallResult) => void) | null = null;
  private claiming: Claiming | null = null;
  private flushed: (() => void) | null = null;
  private boundTo: number | null = null;
  private loaded = false;
  private exited = false;
  iterationInInstance = 0;
  readonly ready: Promise<ScriptFacts>;

  constructor(
    readonly id: number,
    script: ScriptFiles,
    env: Record<string, string>,
    private readonly http: HttpService,
    sinks: VuSinks,
    clock: PollClock,
    /** Called when the VU says an iteration ended in its cells. */
    onWake: () => void,
  ) {
    const { port1, port2 } = new MessageChannel();
    const flagBuffer = new SharedArrayBuffer(CELLS_BYTES);
    this.flag = new Int32Array(flagBuffer);
    this.floats = new Float64Array(flagBuffer);
    this.port = port1;
    // Samples travel with whatever the VU sends; request records among them are expanded here.
    const collect = (samples: (Sample | RequestRecord)[]) => {
      if (samples.length > 0) sinks.samples(expandSamples(samples));
    };
    this.port.on('message', (msg: { type: 'http'; requests: WireRequest[]; samples: (Sample | RequestRecord)[] }) => {
      collect(msg.samples);
      void this.serve(msg.requests);
    });
    // The VU side is plain JavaScript: no TypeScript loader in its threads, whose start-up it would slow.
    this.worker = new Worker(WORKER_URL, {
      execArgv: [],
      workerData: {
        scriptPath: script.scriptPath,
        modulePath: script.modulePath,
        vuId: id,
        env,
        port: port2,
        flag: flagBuffer,
        polled: clock.cells.buffer,
        polledBase: clock.base,
      },
      transferList: [port2],
      stdout: false,
    });
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (msg: { type: string; [k: string]: unknown }) => {
        if (msg.type === 'samples') collect(msg['samples'] as (Sample | RequestRecord)[]);
        else if (msg.type === 'wake') {
          collect(msg['samples'] as (Sample | RequestRecord)[]);
          onWake();
        } else if (msg.type === 'flushed') {
          collect(msg['samples'] as (Sample | RequestRecord)[]);
          this.flushed?.();
        } else if (msg.type === 'iteration-failed') {
          collect(msg['samples'] as (Sample | RequestRecord)[]);
          this.claiming?.sinks.failed(msg['error'] as string | null, msg['aborted'] as string | null);
        } else if (msg.type === 'released') {
          collect(msg['samples'] as (Sample | RequestRecord)[]);
          this.iterationInInstance = msg['iterationInInstance'] as number;
          this.leaveBoard({ iterationInScenario: msg['iterationInScenario'] as number });
        } else if (msg.type === 'console') sinks.console(msg['level'] as string, msg['text'] as string);
        else if (msg.type === 'ready') {
          this.loaded = true;
          resolve(msg as unknown as ScriptFacts);
        } else if (msg.type === 'failed') reject(new Error(`the script failed to load: ${String(msg['error'])}`));
        else if (msg.type === 'done') {
          collect(msg['samples'] as (Sample | RequestRecord)[]);
          const settle = this.pending;
          this.pending = null;
          settle?.(msg as unknown as CallResult);
        }
      });
      this.worker.on('error', (err) => {
        reject(err);
        this.finishPending(`VU ${id} crashed: ${err.message}`);
      });
      this.worker.on('exit', () => {
        this.exited = true;
        this.finishPending(`VU ${id} stopped`);
        this.leaveBoard(null);
      });
    });
  }

  private leaveBoard(end: ClaimEnd): void {
    const claiming = this.claiming;
    this.claiming = null;
    claiming?.settle(end);
  }

  private finishPending(error: string): void {
    const settle = this.pending;
    this.pending = null;
    settle?.({ result: null, error, aborted: null, ms: 0 });
  }

  private async serve(requests: WireRequest[]): Promise<void> {
    const responses = await this.http.all(requests, this.cancel.signal);
    if (this.exited) return;
    this.port.postMessage({ responses: responses.map(packResponse) });
    Atomics.store(this.flag, CELL.REPLY, 1);
    Atomics.notify(this.flag, CELL.REPLY);
  }

  /** Running a call or an iteration, or on a board: not free for other work. */
  get busy(): boolean {
    return this.pending !== null || this.claiming !== null;
  }

  /** Running a call or an iteration now (exec's active VUs). */
  get running(): boolean {
    return this.pending !== null || (this.claiming !== null && Atomics.load(this.flag, CELL.STATE) === RUNNING);
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Wakes the VU's thread, which waits on the signal cell rather than in its event loop. */
  private signal(): void {
    Atomics.add(this.flag, CELL.SIGNAL, 1);
    Atomics.notify(this.flag, CELL.SIGNAL);
  }

  send(message: unknown): void {
    this.worker.postMessage(message);
    this.signal();
  }

  /** A call outside any scenario (setup, teardown, handleSummary, the warm-up); iterations go through iterate(). */
  call(fn: string, arg: unknown, group: string): Promise<CallResult> {
    if (this.busy) throw new Error(`VU ${this.id} is busy`);
    return new Promise((resolve) => {
      this.pending = resolve;
      this.send({ type: 'run', fn, arg, iterationInInstance: this.iterationInInstance, group });
    });
  }

  /** One iteration of a bound scenario, handed over in the cells; it ends there (collect) or with a message. */
  iterate(bind: IterationBind, n: IterationNumbers): Promise<CallResult> {
    if (this.busy) throw new Error(`VU ${this.id} is busy`);
    if (this.boundTo !== bind.id) {
      this.worker.postMessage({ type: 'bind', ...bind });
      this.boundTo = bind.id;
    }
    const f = this.flag;
    Atomics.store(f, CELL.BIND, bind.id);
    Atomics.store(f, CELL.ITERATION_IN_SCENARIO, n.inScenario);
    Atomics.store(f, CELL.VU_ITERATION, this.iterationInInstance);
    Atomics.store(f, CELL.SCENARIO_ITERATION, n.inInstance);
    Atomics.store(f, CELL.ITERATION_IN_TEST, n.inTest);
    this.floats[FLOAT.PROGRESS] = n.progress;
    return new Promise((resolve) => {
      this.pending = resolve;
      Atomics.store(f, CELL.STATE, RUNNING);
      this.signal();
    });
  }

  /**
   * Hands the VU an arrival-rate scenario's board (vu/arrival-board.js): it
   * runs the arrivals it claims there until the board closes, then leaves.
   * Resolves with its __ITER count in the scenario then, or null if it was
   * stopped on the board (an iteration cut at the hard end).
   */
  claim(bind: IterationBind, board: SharedArrayBuffer, iterationInScenario: number, sinks: ClaimSinks): Promise<ClaimEnd> {
    if (this.busy) throw new Error(`VU ${this.id} is busy`);
    if (this.boundTo !== bind.id) {
      this.worker.postMessage({ type: 'bind', ...bind });
      this.boundTo = bind.id;
    }
    return new Promise((settle) => {
      this.claiming = { board, sinks, settle };
      enlist(boardViews(board));
      this.send({ type: 'claim', id: bind.id, board, iterationInInstance: this.iterationInInstance, iterationInScenario });
    });
  }

  /** Settles the iteration the cells show ended. */
  collect(): void {
    if (this.pending === null || Atomics.load(this.flag, CELL.STATE) !== DONE) return;
    Atomics.store(this.flag, CELL.STATE, IDLE);
    const settle = this.pending;
    this.pending = null;
    settle({ result: null, error: null, aborted: null, ms: this.floats[FLOAT.MS]! });
  }

  /** Resolves once the VU has handed over every sample it holds (it sends them in batches). */
  flush(): Promise<void> {
    // A VU still loading, or whose script failed to load, has run nothing. One still in an iteration
    // (one that outlived its scenario's hard end) cannot answer; it sent what it held with its last
    // request or sleep, and is stopped with the rest.
    if (this.exited || !this.loaded || this.busy) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.flushed = null;
        resolve();
      };
      this.flushed = done;
      this.worker.once('exit', done);
      this.send({ type: 'flush' });
    });
  }

  /** Stops the thread, interrupting whatever it runs. */
  async stop(): Promise<void> {
    if (this.exited) return;
    this.cancel.abort();
    // Wake the thread from any Atomics.wait, or terminate() would wait for it.
    Atomics.store(this.flag, CELL.INTERRUPT, 1);
    Atomics.notify(this.flag, CELL.REPLY);
    Atomics.notify(this.flag, CELL.INTERRUPT);
    Atomics.notify(this.flag, CELL.SIGNAL);
    // A VU asleep on a board waits there, not in its own cells.
    if (this.claiming) Atomics.notify(boardViews(this.claiming.board).cells, BOARD.GENERATION);
    await this.worker.terminate();
    this.port.close();
  }
}

/** Free VUs, created on demand up to what the scenarios ask for. */
export class VuPool extends VuFreeList<VirtualUser> {
  /** Shared with every VU of the pool: until when the pool looks at their cells without being told. */
  readonly clock: PollClock = { cells: new Int32Array(new SharedArrayBuffer(8)), base: Date.now() };
  private readonly promises = new Map<object, number>();

  constructor(
    private readonly create: (id: number, clock: PollClock, onWake: () => void) => VirtualUser,
    /** Where VU ids come from, shared with the async VUs so that no two VUs of a test have one id. */
    ids: { next: number } = { next: 1 },
  ) {
    super(ids);
  }

  protected make(id: number): VirtualUser {
    return this.create(id, this.clock, () => this.collect());
  }

  /** Settles every iteration whose end the cells show. */
  collect(): void {
    for (const vu of this.all) vu.collect();
  }

  /**
   * `owner` promises to call collect() by `byMs` (epoch milliseconds), or withdraws its promise (null).
   * While any promise stands, VUs that end an iteration before it post nothing.
   */
  promiseCollect(owner: object, byMs: number | null): void {
    if (byMs === null) this.promises.delete(owner);
    else this.promises.set(owner, byMs);
    let until = 0;
    for (const at of this.promises.values()) until = Math.max(until, at - this.clock.base);
    Atomics.store(this.clock.cells, POLLED_UNTIL, until);
    // An iteration that ended just before the withdrawal saw the promise and said nothing.
    if (byMs === null) this.collect();
  }

  /** Creates VUs until `count` are free (k6 initialises VUs before the test starts). */
  async prepare(count: number): Promise<void> {
    const made: VirtualUser[] = [];
    while (this.free.length + made.length < count) made.push(this.spawn());
    await Promise.all(made.map((vu) => vu.ready));
    this.free.push(...made);
  }

  /** A free VU, creating and initialising one when none is free. */
  async takeOrCreate(): Promise<VirtualUser> {
    const vu = this.take();
    if (vu) return vu;
    const fresh = this.spawn();
    await fresh.ready;
    return fresh;
  }

  /** Every live VU's samples, handed over. */
  async flushAll(): Promise<void> {
    await Promise.all(this.all.map((v) => v.flush()));
  }
}
