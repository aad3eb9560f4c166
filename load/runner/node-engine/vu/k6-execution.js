// The Node runner's `k6/execution`. One process is one instance, so the
// "in test" values equal the "in instance" values. Every value is the
// running VU's (vu-state.js current()).
import { current } from './vu-state.js';

export const scenario = {
  get name() {
    return current().scenario?.name ?? '';
  },
  get executor() {
    return current().scenario?.executor ?? '';
  },
  get startTime() {
    return current().scenario?.startTime ?? 0;
  },
  get progress() {
    return current().scenario?.progress ?? 0;
  },
  get iterationInInstance() {
    return current().scenario?.iterationInInstance ?? 0;
  },
  get iterationInTest() {
    return current().scenario?.iterationInTest ?? 0;
  },
};

export const instance = {
  get iterationsCompleted() {
    return current().instance.iterationsCompleted;
  },
  get iterationsInterrupted() {
    return current().instance.iterationsInterrupted;
  },
  get vusActive() {
    return current().instance.vusActive;
  },
  get vusInitialized() {
    return current().instance.vusInitialized;
  },
  get currentTestRunDuration() {
    const startedAt = current().testStartedAt;
    return startedAt ? Date.now() - startedAt : 0;
  },
};

export class AbortError extends Error {}

export const test = {
  /** @param {string} [reason] */
  abort(reason = 'test aborted') {
    throw Object.assign(new AbortError(reason), { fleetproofAbort: true });
  },
  get options() {
    return current().options;
  },
};

/**
 * A view of one of the running VU's records whose writes keep strings, as k6's do.
 * @param {(s: import('./vu-state.js').VuState) => Record<string, string>} of
 */
function tagView(of) {
  return new Proxy(/** @type {Record<string, string>} */ ({}), {
    get: (_t, key) => of(current())[String(key)],
    set(_t, key, value) {
      of(current())[String(key)] = String(value);
      return true;
    },
    has: (_t, key) => String(key) in of(current()),
    deleteProperty: (_t, key) => delete of(current())[String(key)],
    ownKeys: () => Reflect.ownKeys(of(current())),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(of(current()), key);
      return d ? { ...d, configurable: true } : undefined;
    },
  });
}

export const vu = {
  get idInInstance() {
    return current().id;
  },
  get idInTest() {
    return current().id;
  },
  get iterationInInstance() {
    return current().iterationInInstance;
  },
  get iterationInScenario() {
    return current().iterationInScenario;
  },
  tags: tagView((s) => s.tags),
  metrics: {
    tags: tagView((s) => s.tags),
    get metadata() {
      return current().metadata;
    },
  },
};

export default { scenario, instance, test, vu };
