// A registry that records some settlements as another outcome than the one
// presented (an `outcome_unknown` counted as `cancelled`, say), while every
// answer and route read still shows the outcome the caller sent: only what
// the outcome does (to circuits, to the route) is wrong.
import type { ConnectorReplica, RouteAssignment, SettlementOutcome } from '../../../contract/records.ts';
import type { RegistryPort } from '../../../contract/target-port.ts';

export type OutcomeChoice = (
  outcome: SettlementOutcome,
  assignment: RouteAssignment,
  replica: ConnectorReplica | null,
) => SettlementOutcome | Promise<SettlementOutcome>;

export function recordedAs(inner: RegistryPort, choose: OutcomeChoice): Pick<RegistryPort, 'settle' | 'route'> {
  const shown = new Map<string, { recorded: SettlementOutcome; presented: SettlementOutcome }>();
  return {
    async settle(tenantId, actionId, assignment, outcome) {
      const recorded = await choose(outcome, assignment, await inner.getReplica(assignment.replica_id));
      const result = await inner.settle(tenantId, actionId, assignment, recorded);
      if (recorded === outcome || !result.released) return result;
      shown.set(actionId, { recorded, presented: outcome });
      return { ...result, last_settlement: outcome };
    },
    async route(tenantId, actionId) {
      const view = await inner.route(tenantId, actionId);
      const s = shown.get(actionId);
      return view && s && view.last_settlement === s.recorded ? { ...view, last_settlement: s.presented } : view;
    },
  };
}
