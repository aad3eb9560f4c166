// The Kubernetes instance directory: read and watch only. Snapshot makes
// exactly one Service list and one EndpointSlice list; Observe makes those two
// and then exactly one watch per source, each from its own list's
// resourceVersion. There is no relist, reopen, retry or resubscription: after
// a terminal outcome the consumer decides whether to observe again.
import { Capabilities } from '../capabilities.ts';
import { checkCallOptions, createObservation, type CallOptions, type InstanceDirectory, type InstanceObservation } from '../directory.ts';
import { canceledBy, closedError, directoryError, invalidInput } from '../outcome.ts';
import type { InstanceSnapshot } from '../snapshot.ts';
import { isValidTarget, targetKey, type DirectoryTarget } from '../target.ts';
import { createInstanceWatch } from '../watch.ts';
import { isValidBinding, type KubernetesBinding } from './binding.ts';
import { destroyQuietly, executeOnce, readListBody } from './classify.ts';
import { declaresAllGuarantees, type KubernetesRequestExecutor, type ResponseBody } from './executor.ts';
import { countEndpoints } from './fold.ts';
import { checkService, normalizeSlice, type NormalizedSlice } from './normalize.ts';
import * as requests from './requests.ts';
import { ObservationSession } from './session.ts';
import { snapshotOf, type SourceState } from './source-state.ts';
import { decodeList } from './wire.ts';

export interface KubernetesDirectoryConfig {
  bindings: readonly KubernetesBinding[];
  executor: KubernetesRequestExecutor;
}

const NEVER = new AbortController().signal;

export class KubernetesDirectory implements InstanceDirectory {
  readonly #bindings = new Map<string, KubernetesBinding>();
  readonly #executor: KubernetesRequestExecutor;
  readonly #sessions = new Set<ObservationSession>();
  #closed = false;

  constructor(config: KubernetesDirectoryConfig) {
    const executor = config?.executor;
    if (
      typeof executor !== 'object' ||
      executor === null ||
      typeof executor.execute !== 'function' ||
      typeof executor.guarantees !== 'function'
    ) {
      throw invalidInput();
    }
    if (!declaresAllGuarantees(executor.guarantees())) throw invalidInput();
    if (!Array.isArray(config.bindings)) throw invalidInput();
    for (const binding of config.bindings) {
      if (!isValidBinding(binding) || this.#bindings.has(binding.targetKey)) throw invalidInput();
      this.#bindings.set(binding.targetKey, binding);
    }
    this.#executor = executor;
  }

  capabilities(): Capabilities {
    return Capabilities.of(['snapshot', 'observe']);
  }

  async snapshot(target: DirectoryTarget, options?: CallOptions): Promise<InstanceSnapshot> {
    const { binding, signal } = this.#begin(target, options);
    const state = await this.#list(binding, signal);
    const snapshot = snapshotOf(state, binding, 0);
    if (this.#closed) throw closedError();
    return snapshot;
  }

  async observe(target: DirectoryTarget, options?: CallOptions): Promise<InstanceObservation> {
    const { binding, signal } = this.#begin(target, options);
    const state = await this.#list(binding, signal);
    const initial = snapshotOf(state, binding, 0);
    if (this.#closed) throw closedError();

    const listTokens = { service: state.serviceToken, slice: state.sliceToken };
    const session = new ObservationSession(binding, state, initial, () => this.#sessions.delete(session));
    const { watch, publisher } = createInstanceWatch(binding.bounds.pendingChanges, { onFinished: () => session.end() });
    session.attach(publisher);
    this.#sessions.add(session);

    // The caller's signal governs only the opening; the streams live on the
    // session's own signal until the watch ends. Reading starts once both
    // watches are open, so a failed second open never leaves a half-live
    // observation behind.
    const abortOpen = (): void => session.end();
    signal?.addEventListener('abort', abortOpen, { once: true });
    let serviceBody: ResponseBody | undefined;
    try {
      serviceBody = (await executeOnce(this.#executor, requests.serviceWatch(binding, listTokens.service), session.signal, signal ?? NEVER))
        .body;
      const sliceBody = (await executeOnce(this.#executor, requests.sliceWatch(binding, listTokens.slice), session.signal, signal ?? NEVER))
        .body;
      if (this.#closed) throw closedError();
      session.start('service', serviceBody);
      session.start('slice', sliceBody);
    } catch (error) {
      destroyQuietly(serviceBody);
      session.fail(error);
      if (signal?.aborted) throw canceledBy(signal);
      if (this.#closed) throw closedError();
      throw error;
    } finally {
      signal?.removeEventListener('abort', abortOpen);
    }
    return createObservation(initial, watch);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const session of [...this.#sessions]) session.fail(closedError());
    this.#bindings.clear();
  }

  #begin(target: DirectoryTarget, options: CallOptions | undefined): { binding: KubernetesBinding; signal: AbortSignal | undefined } {
    const signal = checkCallOptions(options);
    if (signal?.aborted) throw canceledBy(signal);
    if (!isValidTarget(target)) throw invalidInput();
    if (this.#closed) throw closedError();
    const binding = this.#bindings.get(targetKey(target));
    if (!binding) throw directoryError('missing');
    return { binding, signal };
  }

  /** Exactly one Service list, then exactly one EndpointSlice list. */
  async #list(b: KubernetesBinding, signal: AbortSignal | undefined): Promise<SourceState> {
    const services = await this.#readList(requests.serviceList(b), b, signal);
    if (services.items.length > 1) throw invalidInput();
    if (services.items[0]) checkService(services.items[0], b, false);
    const sliceList = await this.#readList(requests.sliceList(b), b, signal);
    if (sliceList.items.length > b.bounds.endpointSliceCount) throw invalidInput();
    const slices = new Map<string, NormalizedSlice>();
    for (const item of sliceList.items) {
      const slice = normalizeSlice(item, b, false);
      if (slices.has(slice.uid)) throw invalidInput();
      slices.set(slice.uid, slice);
      if (countEndpoints(slices.values()) > b.bounds.endpointCount) throw invalidInput();
    }
    return {
      servicePresent: services.items.length === 1,
      serviceToken: services.resourceVersion,
      sliceToken: sliceList.resourceVersion,
      slices,
    };
  }

  async #readList(request: ReturnType<typeof requests.serviceList>, b: KubernetesBinding, signal: AbortSignal | undefined) {
    const response = await executeOnce(this.#executor, request, signal ?? NEVER, signal);
    return decodeList(await readListBody(response.body, b.bounds.listResponseBytes, signal));
  }
}
