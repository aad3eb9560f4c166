// One live observation: two watch streams (Service, EndpointSlice), each
// opened from its own list's resourceVersion, feeding one local order. Every
// event is handled synchronously, so events from the two streams are
// serialized without any claim of ordering across the two resources.
import { createChange, diffSnapshots } from '../change.ts';
import { directoryError, invalidInput } from '../outcome.ts';
import type { InstanceSnapshot } from '../snapshot.ts';
import type { WatchPublisher } from '../watch.ts';
import type { KubernetesBinding } from './binding.ts';
import { destroyQuietly } from './classify.ts';
import type { ResponseBody } from './executor.ts';
import { countEndpoints } from './fold.ts';
import { watchLines } from './lines.ts';
import { checkService, deletedSlice, normalizeSlice } from './normalize.ts';
import { snapshotOf, type SourceState } from './source-state.ts';
import { decodeEnvelope, statusOutcome, type WatchEnvelope } from './wire.ts';

export type SourceKind = 'service' | 'slice';

export class ObservationSession {
  readonly #binding: KubernetesBinding;
  readonly #state: SourceState;
  #current: InstanceSnapshot;
  #publisher: WatchPublisher | null = null;
  readonly #bodies = new Set<ResponseBody>();
  readonly #abort = new AbortController();
  readonly #onEnd: () => void;
  #ended = false;

  constructor(binding: KubernetesBinding, state: SourceState, initial: InstanceSnapshot, onEnd: () => void) {
    this.#binding = binding;
    this.#state = state;
    this.#current = initial;
    this.#onEnd = onEnd;
  }

  /** Aborts the session's requests (watch-opens and streams) when it ends. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  attach(publisher: WatchPublisher): void {
    this.#publisher = publisher;
  }

  /** Starts reading one opened stream; the session owns the body from now on. */
  start(kind: SourceKind, body: ResponseBody): void {
    if (this.#ended) return destroyQuietly(body);
    this.#bodies.add(body);
    void this.#read(kind, body);
  }

  /** Ends the session with a terminal outcome (ignored once finished). */
  fail(error: unknown): void {
    this.#publisher?.terminate(error);
    this.end();
  }

  /** Releases both streams and unregisters; idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#abort.abort();
    for (const body of this.#bodies) destroyQuietly(body);
    this.#bodies.clear();
    this.#onEnd();
  }

  async #read(kind: SourceKind, body: ResponseBody): Promise<void> {
    try {
      for await (const line of watchLines(body, this.#binding.bounds.watchEnvelopeBytes)) {
        if (this.#ended) return;
        this.#handle(kind, decodeEnvelope(line));
        if (this.#ended) return;
      }
      this.fail(directoryError('watch_interrupted', 'stream_eof'));
    } catch (error) {
      this.fail(error);
    }
  }

  #handle(kind: SourceKind, event: WatchEnvelope): void {
    if (event.type === 'ERROR') throw statusOutcome(event.object);
    if (kind === 'service') this.#handleService(event);
    else this.#handleSlice(event);
  }

  #handleService(event: WatchEnvelope): void {
    const token = checkService(event.object, this.#binding, true)!;
    this.#state.serviceToken = token;
    if (event.type === 'DELETED') {
      this.#state.servicePresent = false;
      const next = snapshotOf(this.#state, this.#binding, this.#current.revision.localOrder + 1);
      this.#current = next;
      this.#publish(createChange({ kind: 'target_deleted', upserts: [], deletedInstanceIds: [], previousState: null, snapshot: next }));
      return;
    }
    this.#state.servicePresent = true;
    this.#emit();
  }

  #handleSlice(event: WatchEnvelope): void {
    const { slices } = this.#state;
    const bounds = this.#binding.bounds;
    if (event.type === 'DELETED') {
      const gone = deletedSlice(event.object, this.#binding);
      slices.delete(gone.uid);
      this.#state.sliceToken = gone.resourceVersion;
      return this.#emit();
    }
    const slice = normalizeSlice(event.object, this.#binding, true);
    if (!slices.has(slice.uid) && slices.size >= bounds.endpointSliceCount) throw invalidInput();
    const replaced = slices.get(slice.uid);
    const total = countEndpoints(slices.values()) - (replaced?.endpoints.length ?? 0) + slice.endpoints.length;
    if (total > bounds.endpointCount) throw invalidInput();
    slices.set(slice.uid, slice);
    this.#state.sliceToken = slice.resourceVersion!;
    this.#emit();
  }

  /** Publishes the difference to the last emitted snapshot, if there is one. */
  #emit(): void {
    const next = snapshotOf(this.#state, this.#binding, this.#current.revision.localOrder + 1);
    const change = diffSnapshots(this.#current, next);
    if (!change) return; // a no-op source event stays silent
    this.#current = next;
    this.#publish(change);
  }

  #publish(change: ReturnType<typeof createChange>): void {
    const refused = this.#publisher?.publish(change);
    if (refused) this.fail(refused);
  }
}
