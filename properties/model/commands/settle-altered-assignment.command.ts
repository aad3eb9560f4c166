// Settle presenting the assignment with one field altered ([settle-fence]):
// FENCE_LOST, and nothing changes — not the counters, the replica, the
// circuit or the route — whether or not the route holds a reservation.
import fc from 'fast-check';
import { SETTLEMENT_OUTCOMES, type RouteAssignment, type SettlementOutcome } from '../../../contract/records.ts';
import { expectProperty } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { observe, RegistryCommand, takeBranch } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { settle } from '../rules/settlement.ts';
import { changesBetween, probeSettlement } from '../settlement-probe.ts';
import type { ActionKey } from '../../targets/universe.ts';
import { actionChoice } from './choices.ts';

export const ALTERATIONS = [
  'fence_token',
  'replica_id',
  'assigned_at',
  'catalog_revision',
  'credential_revision_ref',
  'topology.zone',
  'admission limit',
  'admission.circuit_open_ms',
] as const;
export type Alteration = (typeof ALTERATIONS)[number];

/** Another valid token of the same length: the registry mints fence tokens in a format of its own, up to the longest allowed. */
const otherToken = (t: string) => `${t.slice(0, -1)}${t.endsWith('x') ? 'y' : 'x'}`;

/** The assignment with one field changed to another valid value, so only the fence can refuse it. */
export function alter(a: RouteAssignment, field: Alteration): RouteAssignment {
  switch (field) {
    case 'fence_token':
      return { ...a, fence_token: otherToken(a.fence_token) };
    case 'replica_id':
      return { ...a, replica_id: `${a.replica_id}x` };
    case 'assigned_at':
      return { ...a, assigned_at: new Date(Date.parse(a.assigned_at) + 1).toISOString() };
    case 'catalog_revision':
      return { ...a, catalog_revision: a.catalog_revision + 1 };
    case 'credential_revision_ref':
      return { ...a, credential_revision_ref: `${a.credential_revision_ref ?? 'credential'}.forged` };
    case 'topology.zone':
      return { ...a, topology: { ...a.topology, zone: `${a.topology.zone}x` } };
    case 'admission limit': {
      const [first, ...rest] = a.admission.base_scopes;
      if (first) return { ...a, admission: { ...a.admission, base_scopes: [{ ...first, limit: first.limit + 1 }, ...rest] } };
      return alter(a, 'admission.circuit_open_ms');
    }
    case 'admission.circuit_open_ms':
      return {
        ...a,
        admission: { ...a.admission, circuit_open_ms: a.admission.circuit_open_ms === 100 ? 101 : a.admission.circuit_open_ms - 1 },
      };
  }
}

export class SettleAlteredAssignmentCommand extends RegistryCommand {
  constructor(
    readonly action: ActionKey,
    readonly field: Alteration,
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
    const forged = alter(a, this.field);
    const before = await probeSettlement(run, route);
    const { obs, window } = await observe(run, () => run.store.settle(a.tenant_id, a.action_id, forged, this.outcome));
    const after = await probeSettlement(run, route);
    expectProperty(
      'idempotent-settlement',
      !obs.ok,
      () => `${this}: the altered assignment was accepted (released: ${obs.ok && obs.value.released})`,
    );
    const changed = changesBetween(before, after);
    expectProperty(
      'idempotent-settlement',
      changed.length === 0,
      () => `${this}: refused with ${obs.ok ? '' : obs.error.code} but changed ${changed.join('; ')}`,
    );
    m.s = takeBranch(
      this.toString(),
      settle(structuredClone(m.s), a.tenant_id, a.action_id, forged, this.outcome, window),
      obs,
      () => false,
    ).state;
  }

  toString(): string {
    return `settle ${this.action} ${this.outcome} with ${this.field} altered`;
  }
}

export const settleAlteredAssignmentCommand = () =>
  fc
    .tuple(actionChoice(), fc.constantFrom(...ALTERATIONS), fc.constantFrom(...SETTLEMENT_OUTCOMES))
    .map(([a, f, o]) => new SettleAlteredAssignmentCommand(a, f, o));
