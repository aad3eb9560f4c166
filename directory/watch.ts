// The pull-only, single-consumer watch over a bounded queue. A provider
// publishes validated changes; the consumer pulls them with next(). Nothing is
// pushed through callbacks and nothing recovers silently: the first terminal
// outcome latches, drops whatever was queued, and is what every later next()
// returns.
import { isValidChange, type InstanceChange } from './change.ts';
import { canceledBy, closedError, DirectoryError, directoryError, invalidInput, terminalFrom } from './outcome.ts';

export interface NextOptions {
  /** Aborting it ends only this call, with `canceled`; nothing is consumed. */
  signal?: AbortSignal;
}

export interface InstanceWatch {
  next(options?: NextOptions): Promise<InstanceChange>;
  /** Idempotent; latches `closed` unless another terminal came first. */
  close(): void;
}

export interface WatchPublisher {
  /** Queues a change; returns the outcome that refused it, or null. */
  publish(change: InstanceChange): DirectoryError | null;
  /** Latches a terminal (filtered to a typed outcome); later ones are ignored. */
  terminate(error: unknown): void;
  /** True once no further change can be delivered. */
  readonly finished: boolean;
}

export interface WatchHooks {
  /**
   * Called once, when the watch can deliver no more source changes (a
   * terminal latched, or target_deleted queued): the provider's moment to
   * release its streams.
   */
  onFinished?: () => void;
}

interface Waiter {
  resolve(change: InstanceChange): void;
  reject(error: DirectoryError): void;
}

export function createInstanceWatch(queueCapacity: number, hooks: WatchHooks = {}): { watch: InstanceWatch; publisher: WatchPublisher } {
  // There is deliberately no default capacity: the binding decides it.
  if (!Number.isSafeInteger(queueCapacity) || queueCapacity <= 0) throw invalidInput();
  const queue: InstanceChange[] = [];
  let terminal: DirectoryError | null = null;
  let targetDeleted = false;
  let finished = false;
  let waiter: Waiter | null = null;

  const finish = (): void => {
    if (finished) return;
    finished = true;
    hooks.onFinished?.();
  };

  const latch = (error: DirectoryError): void => {
    if (terminal) return;
    terminal = error;
    queue.length = 0;
    if (waiter) {
      const w = waiter;
      waiter = null;
      w.reject(error);
    }
    finish();
  };

  /** Hands out one change; after target_deleted only `closed` remains. */
  const deliver = (change: InstanceChange): InstanceChange => {
    if (change.kind === 'target_deleted') latch(closedError());
    return change;
  };

  const publisher: WatchPublisher = {
    publish(change) {
      if (terminal || targetDeleted) return closedError();
      if (!isValidChange(change)) return invalidInput();
      if (queue.length >= queueCapacity && !waiter) {
        // A consumer this far behind gets the overflow, not a stale backlog.
        const overflow = directoryError('watch_interrupted', 'delivery_overflow');
        latch(overflow);
        return overflow;
      }
      if (change.kind === 'target_deleted') {
        targetDeleted = true;
        finish();
      }
      if (waiter) {
        const w = waiter;
        waiter = null;
        w.resolve(deliver(change));
      } else {
        queue.push(change);
      }
      return null;
    },
    terminate(error) {
      if (targetDeleted) return;
      latch(terminalFrom(error));
    },
    get finished() {
      return finished;
    },
  };

  let busy = false;
  const watch: InstanceWatch = {
    next(options = {}) {
      if (typeof options !== 'object' || options === null) return Promise.reject(invalidInput());
      const { signal } = options;
      if (signal !== undefined && !(signal instanceof AbortSignal)) return Promise.reject(invalidInput());
      // One consumer: a second concurrent call fails and leaves the first alone.
      if (busy) return Promise.reject(invalidInput());
      if (signal?.aborted) return Promise.reject(canceledBy(signal));
      const queued = queue.shift();
      if (queued) return Promise.resolve(deliver(queued));
      if (terminal) return Promise.reject(terminal);
      busy = true;
      return new Promise<InstanceChange>((resolve, reject) => {
        const onAbort = (): void => {
          if (waiter !== self) return;
          waiter = null;
          done();
          reject(canceledBy(signal!));
        };
        const done = (): void => {
          busy = false;
          signal?.removeEventListener('abort', onAbort);
        };
        const self: Waiter = {
          resolve: (c) => (done(), resolve(c)),
          reject: (e) => (done(), reject(e)),
        };
        waiter = self;
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    close() {
      latch(closedError());
    },
  };
  return { watch, publisher };
}
