// Pinned routes: for every action, every successful resolve returns an
// assignment identical in every field to the first, whatever happened in
// between — new replicas, drains, rollouts, credential rotation, binding and
// policy changes, lease expiry — and an unavailable pinned replica yields
// REPLICA_UNAVAILABLE naming the pinned instance, never another replica.
import { modelSuite } from './model-suite.ts';

export const pinnedRoutesSuite = modelSuite({
  name: 'pinned-routes',
  property: 'pinned-routes',
  summary: 'every successful resolve of an action returns its first assignment, field for field',
  mix: {
    'resolve-new-action': 3,
    're-resolve-action': 5,
    'settle-route': 3,
    'replay-settlement': 1,
    'resolve-conflicting-action': 1,
    'read-route': 1,
    'put-binding': 3,
    'put-instance': 2,
    'set-version-status': 2,
    'set-type-enabled': 1,
    'put-admission-policy': 1,
    'provision-replica': 2,
    'report-health': 1,
    'drain-replica': 2,
    'lapse-lease': 1,
    'expire-leases': 1,
    'advance-clock': 1,
  },
  maxCommands: 40,
  defaultRuns: { memory: 200, postgres: 12, http: 20 },
});
