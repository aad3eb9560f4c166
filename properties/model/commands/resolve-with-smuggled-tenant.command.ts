// Resolve with a request body that names a tenant ([auth-tenant-from-token],
// [route-request]): the tenant comes from the caller's credentials alone, so
// the body is INVALID_REQUEST, or the refusal of another rule the request
// breaks, and nothing changes. Over HTTP the field travels in the JSON body;
// in process it reaches the store's own check.
import fc from 'fast-check';
import type { ResolveRequest } from '../../../contract/records.ts';
import { expectProperty } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { isIndeterminate } from '../indeterminate.ts';
import { describeObservation, errorMatches, observe, predict, RegistryCommand } from '../command-support.ts';
import { describeOutcome } from '../rules/outcome.ts';
import type { RegistryError } from '../../../contract/registry-error.ts';
import { resolveExisting, resolveNew } from '../rules/routing.ts';
import type { RegistryModel } from '../registry-model.ts';
import { TENANTS, type ActionKey, type CapabilityKey, type TenantKey } from '../../targets/universe.ts';
import { actionChoice, capabilityChoice } from './choices.ts';

export class ResolveWithSmuggledTenantCommand extends RegistryCommand {
  constructor(
    readonly action: ActionKey,
    readonly caller: TenantKey,
    readonly capability: CapabilityKey,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const u = m.u;
    const caller = u.tenant(this.caller);
    const smuggled = u.tenant(TENANTS.find((t) => t !== this.caller)!);
    const existing = m.s.routes[u.action(this.action)];
    const capability = existing?.assignment.capability_id ?? u.capability(this.capability);
    const body = { action_id: u.action(this.action), capability_id: capability, tenant_id: smuggled } as ResolveRequest;
    const { obs, window } = await observe(run, () => run.store.resolve(caller, body));
    // Without an answer, the state read back must show the body was refused: nothing changed. A change means it was
    // obeyed, which this command judges as tenant isolation whether or not the answer arrived.
    if (isIndeterminate(obs)) {
      obs.indeterminate.changeBreaks = 'tenant-isolation';
      return;
    }
    if (obs.ok) {
      const owner = obs.value.assignment.tenant_id;
      expectProperty('tenant-isolation', owner === caller, () => `${this}: the body's tenant_id was obeyed; the route belongs to ${owner}`);
    }
    // The same request without the field may break a routing rule too ([pinned-conflict] for another tenant's action,
    // no binding, no replica, a full scope): any broken rule's refusal may come first ([error-precedence]). Never a route.
    const request: ResolveRequest = { action_id: body.action_id, capability_id: body.capability_id };
    const alone = existing
      ? predict(m.s, window, (s, now) => resolveExisting(s, caller, request, now))
      : predict(m.s, window, (s, now) => resolveNew(s, caller, request, now));
    // Details included: a refusal naming the other tenant's instance or binding means its tenant_id was obeyed.
    const refusals = alone.filter((b) => !b.outcome.ok);
    const allowed = (err: RegistryError) => err.code === 'INVALID_REQUEST' || refusals.some((b) => errorMatches(b.outcome, err));
    // Any other answer means the body's tenant was read, or the body was not refused.
    expectProperty(
      'tenant-isolation',
      !obs.ok && allowed(obs.error),
      () =>
        `${this}: answered ${describeObservation(obs)}; a body naming a tenant must be INVALID_REQUEST${[...new Set(refusals.map((b) => ` or ${describeOutcome(b.outcome)}`))].join('')}`,
    );
  }

  toString(): string {
    return `resolve ${this.action} as tenant-${this.caller} with a body naming the other tenant`;
  }
}

export const resolveWithSmuggledTenantCommand = () =>
  fc
    .tuple(actionChoice(), fc.constantFrom(...TENANTS), capabilityChoice())
    .map(([a, t, c]) => new ResolveWithSmuggledTenantCommand(a, t, c));
