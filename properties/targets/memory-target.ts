// The memory store as a property target: a fresh store per run with a clock
// the suites drive, so every run is deterministic and replays exactly.
import type { Faults } from '../../reference/domain/faults.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { Universe } from '../model/universe.ts';
import { DrivenClock, T0, type RunContext, type Target } from './target.ts';

export interface MemoryTargetOptions {
  /** Deliberate defects, for proving the suites catch them. */
  faults?: Faults;
}

export function memoryTarget(options: MemoryTargetOptions = {}): Target {
  return {
    kind: 'memory',
    description: options.faults?.size ? `memory store with faults ${[...options.faults].join(', ')}` : 'memory store',
    manualClock: true,
    async openRun(): Promise<RunContext> {
      const clock = new DrivenClock(T0);
      const store = new MemoryStore({ clock: () => clock.current, ...(options.faults ? { faults: options.faults } : {}) });
      return { store, clock, u: new Universe(''), shared: false, close: () => store.close() };
    },
    async close() {},
  };
}
