// Stale-cursor rejection: a catalog walk either observes one revision
// throughout — no gaps, no duplicates, a constant total, exactly the model's
// items at that revision — or gets STALE_CURSOR after a catalog write. Never
// a page mixing two revisions; replica churn and routing never stale a cursor.
import { modelSuite } from './model-suite.ts';

export const staleCursorSuite = modelSuite({
  name: 'stale-cursor',
  property: 'stale-cursor',
  summary: 'a page walk sees one revision throughout, or STALE_CURSOR after a catalog write',
  mix: {
    'start-catalog-walk': 4,
    'continue-catalog-walk': 6,
    'put-binding': 2,
    'put-instance': 1,
    'set-version-status': 1,
    'set-type-enabled': 1,
    'put-admission-policy': 1,
    'provision-replica': 1,
    'report-health': 1,
    'drain-replica': 1,
    'lapse-lease': 1,
    'expire-leases': 1,
    'resolve-new-action': 1,
    'settle-route': 1,
  },
  maxCommands: 40,
  defaultRuns: { memory: 200, postgres: 12, http: 20 },
});
