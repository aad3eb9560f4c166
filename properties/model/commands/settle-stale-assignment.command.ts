// Settle an action presenting an assignment the registry did issue, but for
// another action of the same tenant — a stale or mixed-up client
// ([settle-fence]): FENCE_LOST, and neither route nor any counter changes.
import fc from 'fast-check';
import { SETTLEMENT_OUTCOMES, type SettlementOutcome } from '../../../contract/records.ts';
import { expectProperty } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { observe, RegistryCommand, takeBranch } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { settle } from '../rules/settlement.ts';
import { changesBetween, probeSettlement } from '../settlement-probe.ts';
import type { ActionKey } from '../../targets/universe.ts';
import { actionChoice } from './choices.ts';

export class SettleStaleAssignmentCommand extends RegistryCommand {
  constructor(
    readonly action: ActionKey,
    readonly presented: ActionKey,
    readonly outcome: SettlementOutcome,
  ) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    const target = m.s.routes[m.u.action(this.action)];
    const other = m.s.routes[m.u.action(this.presented)];
    return (
      this.action !== this.presented &&
      target !== undefined &&
      other !== undefined &&
      target.assignment.tenant_id === other.assignment.tenant_id
    );
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const route = m.s.routes[m.u.action(this.action)]!;
    const other = m.s.routes[m.u.action(this.presented)]!;
    const a = route.assignment;
    const [before, otherBefore] = [await probeSettlement(run, route), await probeSettlement(run, other)];
    const { obs, window } = await observe(run, () => run.store.settle(a.tenant_id, a.action_id, other.assignment, this.outcome));
    const [after, otherAfter] = [await probeSettlement(run, route), await probeSettlement(run, other)];
    expectProperty('idempotent-settlement', !obs.ok, () => `${this}: another action's assignment was accepted`);
    const changed = [...changesBetween(before, after), ...changesBetween(otherBefore, otherAfter)];
    expectProperty('idempotent-settlement', changed.length === 0, () => `${this}: refused but changed ${changed.join('; ')}`);
    m.s = takeBranch(
      this.toString(),
      settle(structuredClone(m.s), a.tenant_id, a.action_id, other.assignment, this.outcome, window),
      obs,
      () => false,
    ).state;
  }

  toString(): string {
    return `settle ${this.action} ${this.outcome} presenting the assignment of ${this.presented}`;
  }
}

export const settleStaleAssignmentCommand = () =>
  fc
    .tuple(actionChoice(), actionChoice(), fc.constantFrom(...SETTLEMENT_OUTCOMES))
    .map(([a, p, o]) => new SettleStaleAssignmentCommand(a, p, o));
