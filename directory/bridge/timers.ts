// The bridge's only access to time passing: periodic lease renewal and the
// wait before observing again. Injected so tests can drive both by hand.

export interface BridgeTimers {
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realTimers: BridgeTimers = {
  every(ms, fn) {
    const handle = setInterval(fn, ms);
    return () => clearInterval(handle);
  },
  sleep(ms, signal) {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = (): void => {
        clearTimeout(handle);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const handle = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  },
};

export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/** Doubling from `initialMs`, capped at `maxMs`; `failures` counts from 1. */
export function backoffDelay(b: Backoff, failures: number): number {
  return Math.min(b.maxMs, b.initialMs * 2 ** Math.max(0, Math.min(30, failures - 1)));
}
