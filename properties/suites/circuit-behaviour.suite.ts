// Circuit behaviour: a replica's circuit opens after exactly its pinned
// threshold of consecutive unknown outcomes, stays out of new routes and
// retries while open, keeps its count when the open period ends, and resets
// on a completion; cancellations and lease expiries leave it alone.
import { modelSuite } from './model-suite.ts';

export const circuitBehaviourSuite = modelSuite({
  name: 'circuit-behaviour',
  property: 'circuit-behaviour',
  summary: 'circuits open at exactly the threshold of unknown outcomes and reset on completion',
  mix: {
    'resolve-new-action': 4,
    're-resolve-action': 4,
    'settle-unknown-outcome': 5,
    'settle-route': 3,
    'advance-clock': 1,
    'wait-out-circuit': 2,
    'put-admission-policy': 1,
    'drain-replica': 1,
  },
  maxCommands: 40,
  defaultRuns: { memory: 200, postgres: 12, http: 20 },
});
