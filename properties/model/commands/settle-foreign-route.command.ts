// The other tenant settles an action's route, presenting its exact assignment
// ([auth-route-isolation], [settle-unknown-action]): NOT_FOUND, and the route,
// the replica and the counters stay as they were.
import fc from 'fast-check';
import { SETTLEMENT_OUTCOMES, type SettlementOutcome } from '../../../contract/records.ts';
import { expectProperty } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { observe, RegistryCommand, takeBranch } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { settle } from '../rules/settlement.ts';
import { changesBetween, probeSettlement } from '../settlement-probe.ts';
import { TENANTS, type ActionKey } from '../../targets/universe.ts';
import { actionChoice } from './choices.ts';

export class SettleForeignRouteCommand extends RegistryCommand {
  constructor(
    readonly action: ActionKey,
    readonly outcome: SettlementOutcome,
  ) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.s.routes[m.u.action(this.action)] !== undefined;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const route = m.s.routes[m.u.action(this.action)]!;
    const a = route.assignment;
    const intruder = m.u.tenant(TENANTS.find((t) => m.u.tenant(t) !== a.tenant_id)!);
    const before = await probeSettlement(run, route);
    const { obs, window } = await observe(run, () => run.store.settle(intruder, a.action_id, a, this.outcome));
    const after = await probeSettlement(run, route);
    expectProperty('tenant-isolation', !obs.ok, () => `${this}: tenant ${intruder} settled a route of tenant ${a.tenant_id}`);
    const changed = changesBetween(before, after);
    expectProperty(
      'tenant-isolation',
      changed.length === 0,
      () => `${this}: a refused settlement by tenant ${intruder} changed ${changed.join('; ')}`,
    );
    m.s = takeBranch(this.toString(), settle(structuredClone(m.s), intruder, a.action_id, a, this.outcome, window), obs, () => false).state;
  }

  toString(): string {
    return `settle ${this.action} ${this.outcome} as the tenant it does not belong to`;
  }
}

export const settleForeignRouteCommand = () =>
  fc.tuple(actionChoice(), fc.constantFrom(...SETTLEMENT_OUTCOMES)).map(([a, o]) => new SettleForeignRouteCommand(a, o));
