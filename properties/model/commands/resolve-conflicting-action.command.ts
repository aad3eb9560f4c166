// Resolve a known action id from the other tenant, or for another capability
// ([pinned-conflict]): CONFLICT, and nothing changes. A success handed to the
// other tenant would show it a route that is not its own.
import fc from 'fast-check';
import type { ResolveRequest } from '../../../contract/records.ts';
import type { RunContext } from '../../targets/target.ts';
import { expectOwnRoute, observe, predict, RegistryCommand, takeBranch } from '../command-support.ts';
import { sameJson } from '../json.ts';
import type { RegistryModel } from '../registry-model.ts';
import { resolveExisting } from '../rules/routing.ts';
import { CAPABILITIES, TENANTS, type ActionKey } from '../../targets/universe.ts';
import { actionChoice } from './choices.ts';

export type ConflictKind = 'other-tenant' | 'other-capability';

export class ResolveConflictingActionCommand extends RegistryCommand {
  constructor(
    readonly action: ActionKey,
    readonly kind: ConflictKind,
  ) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.s.routes[m.u.action(this.action)] !== undefined;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const first = m.s.routes[m.u.action(this.action)]!.assignment;
    const u = m.u;
    const otherTenant = u.tenant(TENANTS.find((t) => u.tenant(t) !== first.tenant_id)!);
    const otherCapability = u.capability(CAPABILITIES.find((c) => u.capability(c) !== first.capability_id)!);
    const tenant = this.kind === 'other-tenant' ? otherTenant : first.tenant_id;
    const req: ResolveRequest = {
      action_id: first.action_id,
      capability_id: this.kind === 'other-capability' ? otherCapability : first.capability_id,
    };
    const { obs, window } = await observe(run, () => run.store.resolve(tenant, req));
    if (obs.ok) expectOwnRoute(this.toString(), tenant, obs.value.assignment.tenant_id);
    const branches = predict(m.s, window, (s, now) => resolveExisting(s, tenant, req, now));
    m.s = takeBranch(this.toString(), branches, obs, (p, v) => sameJson(p, v)).state;
  }

  toString(): string {
    return this.kind === 'other-tenant'
      ? `resolve ${this.action} as the tenant it does not belong to`
      : `resolve ${this.action} for another capability`;
  }
}

export const resolveConflictingActionCommand = () =>
  fc
    .tuple(actionChoice(), fc.constantFrom<ConflictKind>('other-tenant', 'other-capability'))
    .map(([a, k]) => new ResolveConflictingActionCommand(a, k));
