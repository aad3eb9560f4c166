// Settle an action's route with one of the four outcomes, presenting the exact
// assignment ([settle-*], [circuit-*]). On the registry's own numbers: a
// release takes exactly one unit off the replica and off every counter the
// attempt holds; a settlement of a route that holds nothing changes nothing
// and says released: false; the circuit counts unknown outcomes, opens at the
// pinned threshold and resets on completion.
import fc from 'fast-check';
import { SETTLEMENT_OUTCOMES, type SettlementOutcome } from '../../../contract/records.ts';
import { expectProperty } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { observe, RegistryCommand, takeBranch } from '../command-support.ts';
import { isIndeterminate } from '../indeterminate.ts';
import { sameJson } from '../json.ts';
import type { ModelRoute } from '../model-state.ts';
import type { RegistryModel } from '../registry-model.ts';
import { settle } from '../rules/settlement.ts';
import { changesBetween, probeSettlement, type SettlementSnapshot } from '../settlement-probe.ts';
import type { ActionKey } from '../../targets/universe.ts';
import { expectCircuitAfterRelease } from './circuit-expectations.ts';
import { actionChoice } from './choices.ts';

export class SettleRouteCommand extends RegistryCommand {
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
    const before = await probeSettlement(run, route);
    const { obs, window } = await observe(run, () => run.store.settle(a.tenant_id, a.action_id, a, this.outcome));
    const after = await probeSettlement(run, route);
    if (obs.ok && obs.value.released) this.expectReleasedOnce(route, before, after);
    // Without an answer the release may have happened: the state read back decides (indeterminate.ts).
    else if (!isIndeterminate(obs)) {
      const changed = changesBetween(before, after);
      const answer = obs.ok ? 'released: false' : obs.error.code;
      expectProperty('idempotent-settlement', changed.length === 0, () => `${this}: answered ${answer} but changed ${changed.join('; ')}`);
      expectProperty(
        'idempotent-settlement',
        obs.ok || obs.error.code !== 'FENCE_LOST',
        () => `${this}: the exact assignment was refused with FENCE_LOST`,
      );
    }
    if (obs.ok && obs.value.released) expectCircuitAfterRelease(this.toString(), this.outcome, a, before, after, window);
    const branches = settle(structuredClone(m.s), a.tenant_id, a.action_id, a, this.outcome, window);
    m.s = takeBranch(this.toString(), branches, obs, (p, v) => sameJson(p, v)).state;
  }

  private expectReleasedOnce(route: ModelRoute, before: SettlementSnapshot, after: SettlementSnapshot): void {
    expectProperty('idempotent-settlement', before.route?.reserved === true, () => `${this}: released a route that held no reservation`);
    expectProperty(
      'idempotent-settlement',
      after.active === before.active - 1,
      () => `${this}: replica active_assignments went ${before.active} → ${after.active}, not down by exactly one`,
    );
    for (const scope of route.held) {
      const k = `${scope.kind}/${scope.key}`;
      expectProperty(
        'idempotent-settlement',
        after.counters[k] === before.counters[k]! - 1,
        () => `${this}: counter ${k} went ${before.counters[k]} → ${after.counters[k]}, not down by exactly one`,
      );
    }
    expectProperty(
      'idempotent-settlement',
      after.route?.reserved === false && after.route.last_settlement === this.outcome,
      () => `${this}: the route does not record the release`,
    );
  }

  toString(): string {
    return `settle ${this.action} ${this.outcome}`;
  }
}

/** `outcomes` narrows the draw, e.g. to outcome_unknown where circuits are the point. */
export const settleRouteCommand = (outcomes: readonly SettlementOutcome[] = SETTLEMENT_OUTCOMES) =>
  fc.tuple(actionChoice(), fc.constantFrom(...outcomes)).map(([a, o]) => new SettleRouteCommand(a, o));
