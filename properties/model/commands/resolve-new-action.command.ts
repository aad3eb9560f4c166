// Resolve an action the registry has never seen ([route-*], [assignment-fields]).
// The model allows any replica of the best rank class and checks every field
// of the assignment it can predict; the fence token must be fresh and the
// assignment time inside the call.
import fc from 'fast-check';
import type { ResolveRequest, RouteAssignment } from '../../../contract/records.ts';
import { diverged } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { expectOwnRoute, observe, predict, RegistryCommand, takeBranch } from '../command-support.ts';
import { sameJson } from '../json.ts';
import type { RegistryModel } from '../registry-model.ts';
import { resolveNew } from '../rules/routing.ts';
import { TENANTS, type ActionKey, type CapabilityKey, type TenantKey } from '../../targets/universe.ts';
import { describeTopology, preferenceOf, TOPOLOGY_CHOICES, type TopologyChoice } from './topology-choice.ts';
import { actionChoice, capabilityChoice } from './choices.ts';

function withoutFreshFields(a: RouteAssignment): Omit<RouteAssignment, 'fence_token' | 'assigned_at'> {
  const { fence_token: _token, assigned_at: _at, ...rest } = a;
  return rest;
}

export class ResolveNewActionCommand extends RegistryCommand {
  constructor(
    readonly action: ActionKey,
    readonly tenant: TenantKey,
    readonly capability: CapabilityKey,
    readonly topology: TopologyChoice,
  ) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.s.routes[m.u.action(this.action)] === undefined;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const tenant = m.u.tenant(this.tenant);
    const req: ResolveRequest = {
      action_id: m.u.action(this.action),
      capability_id: m.u.capability(this.capability),
      ...preferenceOf(this.topology),
    };
    const { obs, window } = await observe(run, () => run.store.resolve(tenant, req));
    if (obs.ok) expectOwnRoute(this.toString(), tenant, obs.value.assignment.tenant_id);
    const branches = predict(m.s, window, (s, now) => resolveNew(s, tenant, req, now));
    const branch = takeBranch(
      this.toString(),
      branches,
      obs,
      (p, v) => v.reserved && v.last_settlement === null && sameJson(p, withoutFreshFields(v.assignment)),
      (v) => withoutFreshFields(v.assignment),
    );
    if (obs.ok) {
      const a = obs.value.assignment;
      if (m.s.fenceTokens.includes(a.fence_token))
        diverged(`${this}: fence token ${a.fence_token} was already issued ([assignment-fence-token])`);
      const at = Date.parse(a.assigned_at);
      if (!(at >= window.lo && at <= window.hi)) diverged(`${this}: assigned_at ${a.assigned_at} lies outside the call`);
      branch.state.routes[req.action_id]!.assignment = a;
      branch.state.fenceTokens.push(a.fence_token);
    }
    m.s = branch.state;
  }

  toString(): string {
    return `resolve ${this.action} as tenant-${this.tenant} for ${this.capability}${describeTopology(this.topology)}`;
  }
}

export const resolveNewActionCommand = () =>
  fc
    .tuple(actionChoice(), fc.constantFrom(...TENANTS), capabilityChoice(), fc.constantFrom(...TOPOLOGY_CHOICES))
    .map(([action, tenant, capability, topology]) => new ResolveNewActionCommand(action, tenant, capability, topology));
