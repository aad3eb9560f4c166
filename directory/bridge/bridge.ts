// The bridge from an instance directory to the registry: it observes one
// connector instance's pods and reports each replica's health through the
// lifecycle operations. Readiness maps to `ready`, a terminating pod that
// still serves to `draining`, anything else (or a pod that is gone) to
// `offline`. Leases are renewed only while an observation is live: when the
// watch ends, renewals stop until a new observation confirms each pod again,
// so a bridge that cannot see the cluster lets its replicas' leases lapse
// instead of keeping dead replicas routable.
import type { ReplicaStatus } from '../../contract/records.ts';
import type { ChangeKind } from '../change.ts';
import type { InstanceDirectory, InstanceObservation } from '../directory.ts';
import type { Instance, LifecycleState } from '../instance.ts';
import { DirectoryError, type Outcome, type OutcomeCause } from '../outcome.ts';
import type { InstanceSnapshot, SnapshotState } from '../snapshot.ts';
import type { DirectoryTarget } from '../target.ts';
import { HealthWriter } from './health-writer.ts';
import type { LifecyclePort } from './lifecycle-port.ts';
import { checkTemplate, type ReplicaTemplate } from './replica-template.ts';
import { backoffDelay, realTimers, type Backoff, type BridgeTimers } from './timers.ts';

export function replicaStatusOf(state: LifecycleState): ReplicaStatus {
  return state === 'ready' ? 'ready' : state === 'draining' ? 'draining' : 'offline';
}

export type BridgeEvent =
  | { kind: 'observing' }
  | { kind: 'observed'; state: SnapshotState; instances: number }
  | { kind: 'change'; change: ChangeKind; localOrder: number }
  | { kind: 'reported'; replicaId: string; status: ReplicaStatus; healthRevision: number; provisioned: boolean }
  | { kind: 'report_failed'; replicaId: string; error: string }
  | { kind: 'observe_failed' | 'observation_ended'; outcome: Outcome | null; reason: OutcomeCause | null }
  | { kind: 'retrying'; delayMs: number }
  | { kind: 'renewed'; replicas: number };

export type BridgeExit = 'stopped' | 'target_deleted';

export interface BridgeOptions {
  directory: InstanceDirectory;
  target: DirectoryTarget;
  template: ReplicaTemplate;
  lifecycle: LifecyclePort;
  now?: () => number;
  timers?: BridgeTimers;
  /** Waits between observations after a failure. */
  backoff?: Backoff;
  onEvent?: (event: BridgeEvent) => void;
}

const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000 };
/** Renew at a third of the TTL, so two renewals may fail before a lease lapses. */
const RENEWALS_PER_TTL = 3;

export class DirectoryBridge {
  readonly #options: BridgeOptions;
  readonly #writer: HealthWriter;
  readonly #now: () => number;
  readonly #timers: BridgeTimers;
  readonly #backoff: Backoff;
  readonly #abort = new AbortController();
  /** Pods of the last applied snapshot, by instance id. */
  #present = new Map<string, Instance>();
  /** The last status written or queued for writing, by replica id. */
  readonly #intended = new Map<string, ReplicaStatus>();
  #live = false;
  #writes: Promise<void> = Promise.resolve();
  #running: Promise<BridgeExit> | null = null;

  constructor(options: BridgeOptions) {
    checkTemplate(options.template, options.target);
    this.#options = options;
    this.#writer = new HealthWriter(options.lifecycle, options.template, options.target);
    this.#now = options.now ?? Date.now;
    this.#timers = options.timers ?? realTimers;
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /** Whether an observation is live (and leases are being renewed). */
  get live(): boolean {
    return this.#live;
  }

  /** Runs until stop() or until the target is deleted. */
  run(): Promise<BridgeExit> {
    this.#running ??= this.#run();
    return this.#running;
  }

  /** Stops observing and renewing, and waits for writes already started. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#running;
    await this.#writes;
  }

  /** Resolves once every write queued so far has finished. */
  async settled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.#writes;
      await seen;
    } while (seen !== this.#writes);
  }

  /** One renewal pass: a fresh lease for every ready or draining pod, only while live. */
  renewLeases(): void {
    if (!this.#live) return;
    const lease = this.#now() + this.#options.template.leaseTtlMs;
    let renewed = 0;
    for (const pod of this.#present.values()) {
      const status = replicaStatusOf(pod.state);
      if (status === 'offline') continue;
      renewed++;
      this.#enqueue(() => this.#writer.write(pod, status, lease), this.#writer.replicaId(pod.id), status);
    }
    this.#emit({ kind: 'renewed', replicas: renewed });
  }

  async #run(): Promise<BridgeExit> {
    const signal = this.#abort.signal;
    const stopRenewals = this.#timers.every(Math.max(1, Math.floor(this.#options.template.leaseTtlMs / RENEWALS_PER_TTL)), () =>
      this.renewLeases(),
    );
    let failures = 0;
    try {
      while (!signal.aborted) {
        this.#emit({ kind: 'observing' });
        let observation: InstanceObservation;
        try {
          observation = await this.#options.directory.observe(this.#options.target, { signal });
        } catch (err) {
          if (signal.aborted) break;
          failures++;
          this.#emit({ kind: 'observe_failed', ...outcomeFields(err) });
          await this.#wait(backoffDelay(this.#backoff, failures));
          continue;
        }
        const started = this.#now();
        this.#live = true;
        this.#emit({ kind: 'observed', state: observation.initial.state, instances: observation.initial.instances.length });
        this.#apply(observation.initial, true);
        const end = await this.#follow(observation, signal);
        this.#live = false;
        if (end === 'target_deleted') return 'target_deleted';
        if (signal.aborted) break;
        // A session that lasted is not part of a failure streak.
        if (this.#now() - started > this.#backoff.maxMs) failures = 0;
        failures++;
        const ended = outcomeFields(end);
        this.#emit({ kind: 'observation_ended', ...ended });
        // Kubernetes asks for an immediate relist after expiry or a routine end.
        const routine = ended.outcome === 'stale' || ended.reason === 'stream_eof';
        await this.#wait(routine && failures === 1 ? 0 : backoffDelay(this.#backoff, failures));
      }
      return 'stopped';
    } finally {
      this.#live = false;
      stopRenewals();
      await this.settled();
    }
  }

  async #wait(ms: number): Promise<void> {
    this.#emit({ kind: 'retrying', delayMs: ms });
    if (ms > 0) await this.#timers.sleep(ms, this.#abort.signal);
  }

  /** Applies changes in local order until the watch ends; returns how it ended. */
  async #follow(observation: InstanceObservation, signal: AbortSignal): Promise<'target_deleted' | unknown> {
    try {
      for (;;) {
        const change = await observation.watch.next({ signal });
        this.#emit({ kind: 'change', change: change.kind, localOrder: change.revision.localOrder });
        // The attached snapshot is the complete result: applying it, not the
        // delta, means a missed delta cannot hide.
        this.#apply(change.snapshot, false);
        if (change.kind === 'target_deleted') return 'target_deleted';
      }
    } catch (err) {
      return err;
    } finally {
      observation.watch.close();
    }
  }

  /**
   * Brings the registry in line with a snapshot. `confirm` (a new
   * observation) re-reports every routable pod, renewing its lease.
   */
  #apply(snapshot: InstanceSnapshot, confirm: boolean): void {
    const now = this.#now();
    const lease = now + this.#options.template.leaseTtlMs;
    const next = new Map(snapshot.instances.map((i) => [i.id, i]));
    for (const pod of snapshot.instances) {
      const status = replicaStatusOf(pod.state);
      const replicaId = this.#writer.replicaId(pod.id);
      const previous = this.#intended.get(replicaId);
      if (previous === status && !(confirm && status !== 'offline')) continue;
      this.#enqueue(() => this.#writer.write(pod, status, status === 'offline' ? now : lease), replicaId, status);
    }
    const stillPresent = new Set([...next.keys()].map((id) => this.#writer.replicaId(id)));
    for (const [replicaId, status] of this.#intended) {
      if (stillPresent.has(replicaId) || status === 'offline') continue;
      // The pod is gone: end the lease now rather than let it run out.
      this.#enqueue(() => this.#writer.writeById(replicaId, 'offline', now), replicaId, 'offline');
    }
    this.#present = next;
  }

  /** Writes run one at a time, in the order they were decided. */
  #enqueue(write: () => ReturnType<HealthWriter['write']>, replicaId: string, status: ReplicaStatus): void {
    this.#intended.set(replicaId, status);
    this.#writes = this.#writes.then(async () => {
      try {
        this.#emit({ kind: 'reported', ...(await write()) });
      } catch (err) {
        // Forget the intent, so the next snapshot or renewal writes it again.
        if (this.#intended.get(replicaId) === status) this.#intended.delete(replicaId);
        this.#emit({ kind: 'report_failed', replicaId, error: err instanceof Error ? err.message : String(err) });
      }
    });
  }

  #emit(event: BridgeEvent): void {
    this.#options.onEvent?.(event);
  }
}

function outcomeFields(err: unknown): { outcome: Outcome | null; reason: OutcomeCause | null } {
  return DirectoryError.is(err) ? { outcome: err.outcome, reason: err.reason } : { outcome: null, reason: null };
}
