// Whether a tenant sees a capability, asked both ways the contract offers:
// a page filtered by capability id and the single-capability read. The two
// follow the same visibility rules ([catalog-get]), so they must agree.
import type { CaseContext } from './context.ts';
import { expectError, expectEqual, expectOk } from './expect.ts';

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
