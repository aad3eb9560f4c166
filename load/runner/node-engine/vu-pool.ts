// The VU threads of the Node runner. Each VU is a worker thread running
// vu/vu-worker.js; it posts HTTP work through its own MessageChannel and
// waits on a shared flag, which this side raises once undici has answered.
// A VU runs one call at a time; the pool hands free VUs to scenarios and
// takes them back, so scenarios that do not overlap share VUs as in k6.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { HttpService, WireRequest } from './http-service.ts';
import type { Sample } from './metrics.ts';
import type {} from './vu/checked-modules.ts';
import { packResponse } from './vu/wire-response.js';
import { expandSamples, type RequestRecord } from './vu/request-samples.js';

const WORKER_URL = new URL('./vu/vu-worker.js', import.meta.url);

export interface ScenarioContext {
  name: string;
  executor: string;
  startTime: number;
  progress: number;
  iterationInInstance: number;
  iterationInTest: number;
  tags: Record<string, string>;
}

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
  metrics: { name: string; type: Sample['type']; time: boolean }[];
}

export interface VuSinks {
  samples(samples: Sample[]): void;
  console(level: string, text: string): void;
}

export class VirtualUser {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag: Int32Array;
  private pending: ((r: CallResult) => void) | null = null;
  private exited = false;
  iterationInInstance = 0;
  readonly ready: Promise<ScriptFacts>;

  constructor(
    readonly id: number,
    script: ScriptFiles,
    env: Record<string, string>,
    private readonly http: HttpService,
    sinks: VuSinks,
  ) {
    const { port1, port2 } = new MessageChannel();
    const flagBuffer = new SharedArrayBuffer(8);
    this.flag = new Int32Array(flagBuffer);
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
    this.worker = new Worker(WORKER_URL, { execArgv: [], workerData: { scriptPath: script.scriptPath, modulePath: script.modulePath, vuId: id, env, port: port2, flag: flagBuffer }, transferList: [port2], stdout: false });
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (msg: { type: string; [k: string]: unknown }) => {
        if (msg.type === 'samples') collect(msg['samples'] as (Sample | RequestRecord)[]);
        else if (msg.type === 'console') sinks.console(msg['level'] as string, msg['text'] as string);
        else if (msg.type === 'ready') resolve(msg as unknown as ScriptFacts);
        else if (msg.type === 'failed') reject(new Error(`the script failed to load: ${String(msg['error'])}`));
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
      });
    });
  }

  private finishPending(error: string): void {
    const settle = this.pending;
    this.pending = null;
    settle?.({ result: null, error, aborted: null, ms: 0 });
  }

  private async serve(requests: WireRequest[]): Promise<void> {
    const responses = await this.http.all(requests);
    if (this.exited) return;
    this.port.postMessage({ responses: responses.map(packResponse) });
    Atomics.store(this.flag, 0, 1);
    Atomics.notify(this.flag, 0);
  }

  get busy(): boolean {
    return this.pending !== null;
  }

  get alive(): boolean {
    return !this.exited;
  }

  send(message: unknown): void {
    this.worker.postMessage(message);
  }

  call(fn: string, arg: unknown, scenario: ScenarioContext | null, iterationInScenario: number, group: string): Promise<CallResult> {
    if (this.pending) throw new Error(`VU ${this.id} is busy`);
    return new Promise((resolve) => {
      this.pending = resolve;
      this.worker.postMessage({ type: 'run', fn, arg, scenario, iterationInScenario, iterationInInstance: this.iterationInInstance, group });
    });
  }

  /** Stops the thread, interrupting whatever it runs. */
  async stop(): Promise<void> {
    if (this.exited) return;
    // Wake the thread from any Atomics.wait, or terminate() would wait for it.
    Atomics.store(this.flag, 1, 1);
    Atomics.notify(this.flag, 0);
    Atomics.notify(this.flag, 1);
    await this.worker.terminate();
    this.port.close();
  }
}

/** Free VUs, created on demand up to what the scenarios ask for. */
export class VuPool {
  private readonly free: VirtualUser[] = [];
  readonly all: VirtualUser[] = [];
  private nextId = 1;

  constructor(private readonly create: (id: number) => VirtualUser) {}

  /** Creates VUs until `count` are free (k6 initialises VUs before the test starts). */
  async prepare(count: number): Promise<void> {
    const made: VirtualUser[] = [];
    while (this.free.length + made.length < count) made.push(this.spawn());
    await Promise.all(made.map((vu) => vu.ready));
    this.free.push(...made);
  }

  private spawn(): VirtualUser {
    const vu = this.create(this.nextId++);
    this.all.push(vu);
    return vu;
  }

  /** A free VU, or null; never waits. */
  take(): VirtualUser | null {
    while (this.free.length > 0) {
      const vu = this.free.pop()!;
      if (vu.alive) return vu;
    }
    return null;
  }

  /** A free VU, creating and initialising one when none is free. */
  async takeOrCreate(): Promise<VirtualUser> {
    const vu = this.take();
    if (vu) return vu;
    const fresh = this.spawn();
    await fresh.ready;
    return fresh;
  }

  give(vu: VirtualUser): void {
    if (vu.alive) this.free.push(vu);
  }

  get initialized(): number {
    return this.all.filter((v) => v.alive).length;
  }

  get active(): number {
    return this.all.filter((v) => v.alive && v.busy).length;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.all.map((v) => v.stop()));
  }
}
