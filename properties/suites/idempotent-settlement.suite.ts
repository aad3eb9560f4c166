// Idempotent settlement: after any sequence of settlements of an assignment,
// capacity and every admission counter are released exactly once; replays
// succeed with released: false and change nothing; any altered field, or
// another action's assignment, is FENCE_LOST and changes nothing. Judged on
// the registry's own counters before and after each settlement.
import { modelSuite } from './model-suite.ts';

export const idempotentSettlementSuite = modelSuite({
  name: 'idempotent-settlement',
  property: 'idempotent-settlement',
  summary: 'settlement releases exactly once; replays and altered assignments change nothing',
  mix: {
    'resolve-new-action': 4,
    're-resolve-action': 3,
    'settle-route': 3,
    'replay-settlement': 3,
    'settle-altered-assignment': 3,
    'settle-stale-assignment': 2,
    'expire-leases': 1,
    'lapse-lease': 1,
    'drain-replica': 1,
    'report-health': 1,
    'put-admission-policy': 1,
  },
  maxCommands: 40,
  defaultRuns: { memory: 200, postgres: 12, http: 20 },
});
