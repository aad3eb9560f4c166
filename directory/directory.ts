// The provider-neutral boundary: what any instance directory (Kubernetes
// today, others later) offers its consumers. It reports ephemeral topology
// for an exact target; it never registers, selects, balances, retries or
// recovers on its own. After any terminal outcome the consumer decides
// whether to observe again.
import type { Capabilities } from './capabilities.ts';
import { invalidInput } from './outcome.ts';
import { createSnapshot, type InstanceSnapshot } from './snapshot.ts';
import type { DirectoryTarget } from './target.ts';
import type { InstanceWatch } from './watch.ts';

export interface CallOptions {
  /** Aborting it ends the call with `canceled`. */
  signal?: AbortSignal;
}

export interface InstanceObservation {
  /** The snapshot the watch starts from, at local order 0. */
  readonly initial: InstanceSnapshot;
  /** Already open when the observation is returned. */
  readonly watch: InstanceWatch;
}

export interface InstanceDirectory {
  /**
   * The current topology at local order 0. `missing` error: no binding for
   * the target. A bound target whose source object is absent is a snapshot in
   * state `missing`, not an error.
   */
  snapshot(target: DirectoryTarget, options?: CallOptions): Promise<InstanceSnapshot>;
  /** The initial snapshot together with an open watch from it. */
  observe(target: DirectoryTarget, options?: CallOptions): Promise<InstanceObservation>;
  capabilities(): Capabilities;
  /** Ends every live observation with `closed`; later calls are `closed`. Idempotent. */
  close(): Promise<void>;
}

export function createObservation(initial: InstanceSnapshot, watch: InstanceWatch): InstanceObservation {
  if (!watch || typeof watch.next !== 'function' || typeof watch.close !== 'function') throw invalidInput();
  const snapshot = createSnapshot(initial);
  if (snapshot.revision.localOrder !== 0) throw invalidInput();
  return Object.freeze({ initial: snapshot, watch });
}

/** Checks call options before any work: a non-signal is `invalid`. */
export function checkCallOptions(options: unknown): AbortSignal | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) throw invalidInput();
  const signal = (options as CallOptions).signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw invalidInput();
  return signal;
}
