// Resolve, read and settle routes (spec.md §9–§13). The tenant is the token's
// tenant_id claim ([auth-tenant-from-token]); a dispatch token without one is
// refused before the body is read ([auth-dispatch-needs-tenant]). Another
// tenant's route is simply not there for the caller ([auth-route-isolation]):
// the store scopes every read and settlement by tenant.
import type { ResolveRequest, RouteAssignment, SettlementOutcome } from '../../../contract/records.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import type { Principal } from '../authenticate.ts';
import { found, ok, principalOf, type OperationInput, type OperationHandler } from '../operation.ts';

function requireTenant(principal: Principal): void {
  if (principal.tenantId === null) throw new RegistryError('FORBIDDEN', 'routing needs a token with a tenant_id claim');
}

function tenantOf(input: OperationInput): string {
  return principalOf(input).tenantId!;
}

export const routingHandlers: Record<'resolveRoute' | 'getRoute' | 'settleRoute', OperationHandler> = {
  resolveRoute: {
    authorize: requireTenant,
    async handle(input, { store }) {
      return ok(await store.resolve(tenantOf(input), input.body as ResolveRequest));
    },
  },
  getRoute: {
    authorize: requireTenant,
    async handle(input, { store }) {
      return found(await store.route(tenantOf(input), input.params['action_id']!), 'route');
    },
  },
  settleRoute: {
    authorize: requireTenant,
    async handle(input, { store }) {
      const { assignment, outcome } = input.body as { assignment: RouteAssignment; outcome: SettlementOutcome };
      return ok(await store.settle(tenantOf(input), input.params['action_id']!, assignment, outcome));
    },
  },
};
