// Tenant isolation: no command by one tenant ever observes another tenant's
// routes or records — not by reading, settling or resolving its action ids,
// not by walking the catalog, and not by naming the other tenant in a body.
import { modelSuite } from './model-suite.ts';

export const tenantIsolationSuite = modelSuite({
  name: 'tenant-isolation',
  property: 'tenant-isolation',
  summary: 'no tenant observes another tenant’s routes or catalog',
  mix: {
    'resolve-new-action': 4,
    'read-route': 3,
    'settle-foreign-route': 2,
    'resolve-with-smuggled-tenant': 3,
    'resolve-conflicting-action': 2,
    'start-catalog-walk': 2,
    'continue-catalog-walk': 2,
    'settle-route': 1,
    're-resolve-action': 1,
    'put-binding': 1,
  },
  maxCommands: 40,
  defaultRuns: { memory: 200, postgres: 12, http: 20 },
});
