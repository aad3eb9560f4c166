// A registry that answers assignments other than those it stores: every
// resolve and route read shows the rewritten assignment, and a settlement
// presenting what it showed is matched against the stored one, so routes
// still settle. What a client reads is wrong; what the store holds is not.
import type { RouteView } from '../../../contract/records.ts';
import type { RegistryPort } from '../../../contract/target-port.ts';
import { jsonEqual } from '../../domain/validation.ts';

export function rewrittenAssignments(
  inner: RegistryPort,
  rewrite: (view: RouteView) => RouteView,
): Pick<RegistryPort, 'resolve' | 'route' | 'settle'> {
  return {
    resolve: async (tenantId, request) => rewrite(await inner.resolve(tenantId, request)),
    route: async (tenantId, actionId) => {
      const view = await inner.route(tenantId, actionId);
      return view && rewrite(view);
    },
    settle: async (tenantId, actionId, presented, outcome) => {
      const stored = await inner.route(tenantId, actionId);
      const shown = stored && rewrite(stored).assignment;
      return inner.settle(tenantId, actionId, stored && jsonEqual(shown, presented) ? stored.assignment : presented, outcome);
    },
  };
}
