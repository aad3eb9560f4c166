// A deterministic in-memory directory: the reference for the provider-
// neutral contract and a stand-in source for consumers' tests (the bridge).
// Tests bind snapshots, emit changes and terminate observations explicitly.
import { Capabilities } from '../../capabilities.ts';
import { createChange, diffSnapshots, type InstanceChange } from '../../change.ts';
import {
  checkCallOptions,
  createObservation,
  type CallOptions,
  type InstanceDirectory,
  type InstanceObservation,
} from '../../directory.ts';
import { instancesEqual } from '../../instance.ts';
import { canceledBy, closedError, DirectoryError, directoryError, invalidInput } from '../../outcome.ts';
import { createSnapshot, isValidSnapshot, withLocalOrder, type InstanceSnapshot } from '../../snapshot.ts';
import { isValidTarget, targetKey, targetsEqual, type DirectoryTarget } from '../../target.ts';
import { createInstanceWatch, type WatchPublisher } from '../../watch.ts';

interface Session {
  publisher: WatchPublisher;
  localOrder: number;
}

interface Binding {
  current: InstanceSnapshot;
  sessions: Set<Session>;
}

function sameDelta(a: InstanceChange, b: InstanceChange): boolean {
  return (
    a.kind === b.kind &&
    a.previousState === b.previousState &&
    a.upserts.length === b.upserts.length &&
    a.upserts.every((u, i) => instancesEqual(u, b.upserts[i]!)) &&
    a.deletedInstanceIds.join('\u001f') === b.deletedInstanceIds.join('\u001f')
  );
}

export class FakeDirectory implements InstanceDirectory {
  readonly #capabilities: Capabilities;
  readonly #queueCapacity: number;
  readonly #bindings = new Map<string, Binding>();
  #closed = false;

  constructor(queueCapacity: number, capabilities: Capabilities = Capabilities.of(['snapshot', 'observe'])) {
    if (!Number.isSafeInteger(queueCapacity) || queueCapacity <= 0) throw invalidInput();
    if (!capabilities.supports('snapshot') || !capabilities.supports('observe')) throw invalidInput();
    this.#capabilities = capabilities;
    this.#queueCapacity = queueCapacity;
  }

  capabilities(): Capabilities {
    return this.#capabilities;
  }

  /** Binds (or rebinds) a target to a snapshot at local order 0. */
  bind(target: DirectoryTarget, snapshot: InstanceSnapshot): void {
    if (this.#closed) throw closedError();
    if (!isValidTarget(target) || !isValidSnapshot(snapshot) || snapshot.revision.localOrder !== 0) throw invalidInput();
    if (!targetsEqual(snapshot.target, target)) throw invalidInput();
    const key = targetKey(target);
    // Replacing the state under a live observation would skip its deltas.
    if ((this.#bindings.get(key)?.sessions.size ?? 0) > 0) throw invalidInput();
    this.#bindings.set(key, { current: createSnapshot(snapshot), sessions: new Set() });
  }

  /**
   * Applies one change (at local order 1, relative to the current state) and
   * delivers it to every live observation, renumbered in each one's own order.
   */
  emit(target: DirectoryTarget, change: InstanceChange): void {
    const binding = this.#binding(target);
    const input = createChange(change);
    if (input.revision.localOrder !== 1) throw invalidInput();
    const next = withLocalOrder(input.snapshot, 0);
    if (input.kind !== 'target_deleted') {
      const expected = diffSnapshots(binding.current, withLocalOrder(next, 1));
      if (!expected || !sameDelta(expected, input)) throw invalidInput();
    }
    binding.current = next;
    for (const session of [...binding.sessions]) {
      session.localOrder += 1;
      const { revision: _sourceOrder, ...delta } = input;
      const rebased = createChange({ ...delta, snapshot: withLocalOrder(next, session.localOrder) });
      session.publisher.publish(rebased);
    }
  }

  /** Ends every live observation of the target with a typed outcome. */
  terminate(target: DirectoryTarget, error: DirectoryError): void {
    if (!DirectoryError.is(error)) throw directoryError('invalid', 'terminal_outcome_required');
    for (const session of [...this.#binding(target).sessions]) session.publisher.terminate(error);
  }

  liveObservations(target: DirectoryTarget): number {
    return this.#bindings.get(targetKey(target))?.sessions.size ?? 0;
  }

  async snapshot(target: DirectoryTarget, options?: CallOptions): Promise<InstanceSnapshot> {
    const signal = checkCallOptions(options);
    if (signal?.aborted) throw canceledBy(signal);
    return this.#binding(target).current;
  }

  async observe(target: DirectoryTarget, options?: CallOptions): Promise<InstanceObservation> {
    const signal = checkCallOptions(options);
    if (signal?.aborted) throw canceledBy(signal);
    const binding = this.#binding(target);
    const session: Session = { publisher: undefined as unknown as WatchPublisher, localOrder: 0 };
    const { watch, publisher } = createInstanceWatch(this.#queueCapacity, { onFinished: () => binding.sessions.delete(session) });
    session.publisher = publisher;
    binding.sessions.add(session);
    return createObservation(binding.current, watch);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const binding of this.#bindings.values()) for (const s of [...binding.sessions]) s.publisher.terminate(closedError());
    this.#bindings.clear();
  }

  #binding(target: DirectoryTarget): Binding {
    if (this.#closed) throw closedError();
    if (!isValidTarget(target)) throw invalidInput();
    const binding = this.#bindings.get(targetKey(target));
    if (!binding) throw directoryError('missing');
    return binding;
  }
}
