// Whether a tenant sees a capability, asked both ways the contract offers:
// a page filtered by capability id and the single-capability read. The two
// follow the same visibility rules ([catalog-get]), so they must agree.
import type { Capability } from '../../contract/records.ts';
import type { CaseContext } from './context.ts';
import { expectError, expectEqual, expectOk } from './expect.ts';
import type { Fleet, FleetSpec } from './fixtures.ts';

export async function visibleTo(ctx: CaseContext, tenant: string, capabilityId: string, profile?: string): Promise<boolean> {
  const client = ctx.catalogFor(tenant);
  const reply = await client.call('queryCatalog', { query: { capability_id: capabilityId, ...(profile ? { profile } : {}) } });
  const page = expectOk(reply, 'catalog page');
  const inPage = page.capabilities.some((d) => d.capability.id === capabilityId);
  expectEqual(page.total, inPage ? 1 : 0, `total of a page filtered to ${capabilityId}`, reply.exchange);
  if (profile !== undefined) return inPage;
  const single = await client.call('getCatalogCapability', { params: { capability_id: capabilityId } });
  if (single.status !== 200) expectError(single, 'NOT_FOUND', undefined, 'single-capability read');
  expectEqual(single.status === 200, inPage, `single read and page agree on whether ${capabilityId} is visible`, single.exchange);
  return inPage;
}

/**
 * A capability bound for the fleet's tenant and another admitted and active beside it that the tenant has no
 * binding for. They share a version when the declared limits allow two capabilities per version, so that only
 * the binding can hide the second; under max_capabilities_per_version 1 the second has a version and an
 * instance of its own, where no binding can have leaked from the first.
 */
export async function boundBesideUnbound(
  ctx: CaseContext,
  spec: Pick<FleetSpec, 'profiles'> = {},
): Promise<{ fleet: Fleet; bound: Capability; unbound: Capability }> {
  const [bound, unbound] = [ctx.fx.capability(), ctx.fx.capability()];
  if (ctx.limits.max_capabilities_per_version >= 2)
    return { fleet: await ctx.fx.fleet({ ...spec, capabilities: [bound, unbound], bound: [bound.id] }), bound, unbound };
  const fleet = await ctx.fx.fleet({ ...spec, capabilities: [bound] });
  await ctx.fx.fleet({ ...spec, tenant: fleet.tenant, capabilities: [unbound], bound: [] });
  return { fleet, bound, unbound };
}
