import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/no-tenant-context-derives-nothing',
  clause: 'failure-no-tenant',
  category: 'auth-and-isolation',
  description: 'without a tenant claim there is no tenant catalog and no routing, whatever the payload says',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const noTenant = ctx.as({ roles: ['registry:reader', 'registry:dispatch'] });
    const page = expectOk(await noTenant.call('queryCatalog', { query: { capability_id: fleet.capability } }));
    expectEqual([page.total, page.capabilities.length], [0, 0], 'catalog matches without tenant context');
    // A tenant named in the query is an undeclared parameter ([wire-query]): ignored, so still no tenant catalog.
    const query = { capability_id: fleet.capability, tenant_id: fleet.tenant } as never;
    const named = expectOk(await noTenant.call('queryCatalog', { query }));
    expectEqual([named.total, named.capabilities.length], [0, 0], 'catalog matches with tenant_id in the query, token without tenant');
    const body = { action_id: ctx.ids.action(), capability_id: fleet.capability, tenant_id: fleet.tenant };
    const reply = await noTenant.call('resolveRoute', { body: unchecked(body) });
    expectError(reply, 'FORBIDDEN', undefined, 'resolve naming the tenant in the body, token without tenant');
  },
});
