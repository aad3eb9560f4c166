// A registry that keeps some actions under another id than the caller's:
// the store holds the route under an alias, and every read and settlement
// of the caller's id goes to it, with the id put back in what comes out.
// A defect that must make a second route for one action (a retry that
// selects anew) gives the action a fresh alias.
import { createHash } from 'node:crypto';
import type { RouteAssignment, RouteView, SettlementResult } from '../../../contract/records.ts';
import type { RegistryPort } from '../../../contract/target-port.ts';

export class RenamedActions {
  private readonly aliases = new Map<string, string>();
  private count = 0;

  /** The id the store holds the action under. */
  idOf(actionId: string): string {
    return this.aliases.get(actionId) ?? actionId;
  }

  /** A fresh id for the action, a valid action id whatever the original's length. */
  renew(actionId: string): string {
    const alias = `a.${createHash('sha256').update(`${actionId}\u001f${++this.count}`).digest('hex').slice(0, 40)}`;
    this.aliases.set(actionId, alias);
    return alias;
  }

  asStored(assignment: RouteAssignment): RouteAssignment {
    return { ...assignment, action_id: this.idOf(assignment.action_id) };
  }

  asCalled<T extends RouteView | null>(actionId: string, view: T): T {
    return view && ({ ...view, assignment: { ...view.assignment, action_id: actionId } } as T);
  }

  /** route and settle of the caller's ids, through the aliases. */
  reads(inner: RegistryPort): Pick<RegistryPort, 'route' | 'settle'> {
    return {
      route: async (tenantId, actionId) => this.asCalled(actionId, await inner.route(tenantId, this.idOf(actionId))),
      settle: async (tenantId, actionId, assignment, outcome): Promise<SettlementResult> => ({
        ...(await inner.settle(tenantId, this.idOf(actionId), this.asStored(assignment), outcome)),
        action_id: actionId,
      }),
    };
  }
}
