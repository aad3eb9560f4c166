// The Node runner's `k6/execution`. One process is one instance, so the
// "in test" values equal the "in instance" values.
import { vu as state } from './vu-state.js';

export const scenario = {
  get name() {
    return state.scenario ? state.scenario.name : '';
  },
  get executor() {
    return state.scenario ? state.scenario.executor : '';
  },
  get startTime() {
    return state.scenario ? state.scenario.startTime : 0;
  },
  get progress() {
    return state.scenario ? state.scenario.progress : 0;
  },
  get iterationInInstance() {
    return state.scenario ? state.scenario.iterationInInstance : 0;
  },
  get iterationInTest() {
    return state.scenario ? state.scenario.iterationInTest : 0;
  },
};

export const instance = {
  get iterationsCompleted() {
    return state.instance.iterationsCompleted;
  },
  get iterationsInterrupted() {
    return state.instance.iterationsInterrupted;
  },
  get vusActive() {
    return state.instance.vusActive;
  },
  get vusInitialized() {
    return state.instance.vusInitialized;
  },
  get currentTestRunDuration() {
    return state.testStartedAt ? Date.now() - state.testStartedAt : 0;
  },
};

export class AbortError extends Error {}

export const test = {
  /** @param {string} [reason] */
  abort(reason = 'test aborted') {
    throw Object.assign(new AbortError(reason), { fleetproofAbort: true });
  },
  get options() {
    return state.options;
  },
};

export const vu = {
  get idInInstance() {
    return state.id;
  },
  get idInTest() {
    return state.id;
  },
  get iterationInInstance() {
    return state.iterationInInstance;
  },
  get iterationInScenario() {
    return state.iterationInScenario;
  },
  tags: new Proxy(state.tags, {
    set(target, key, value) {
      target[String(key)] = String(value);
      return true;
    },
  }),
  metrics: {
    tags: new Proxy(state.tags, {
      set(target, key, value) {
        target[String(key)] = String(value);
        return true;
      },
    }),
    metadata: state.metadata,
  },
};

export default { scenario, instance, test, vu };
