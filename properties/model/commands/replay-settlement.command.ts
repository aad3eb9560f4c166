// Settle again a route that holds no reservation any more — a client retrying
// a settlement it already made, with any outcome ([settle-idempotent]): it
// succeeds with released: false and changes nothing. The checks are those of
// every settlement; this command only makes replays common.
import fc from 'fast-check';
import { SETTLEMENT_OUTCOMES } from '../../../contract/records.ts';
import type { RegistryModel } from '../registry-model.ts';
import { SettleRouteCommand } from './settle-route.command.ts';
import { actionChoice } from './choices.ts';

export class ReplaySettlementCommand extends SettleRouteCommand {
  override check(m: Readonly<RegistryModel>): boolean {
    const route = m.s.routes[m.u.action(this.action)];
    return route !== undefined && !route.reserved;
  }

  override toString(): string {
    return `replay the settlement of ${this.action} as ${this.outcome}`;
  }
}

export const replaySettlementCommand = () =>
  fc.tuple(actionChoice(), fc.constantFrom(...SETTLEMENT_OUTCOMES)).map(([a, o]) => new ReplaySettlementCommand(a, o));
