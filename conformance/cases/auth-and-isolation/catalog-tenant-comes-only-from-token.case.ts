import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/catalog-tenant-comes-only-from-token',
  clause: 'auth-tenant-from-token',
  category: 'auth-and-isolation',
  description: "a tenant_id query parameter or header never shows another tenant's catalog",
  async run(ctx) {
    const victim = await ctx.fx.fleet();
    const attacker = ctx.catalogFor(ctx.ids.tenant('attacker'));
    const query = { capability_id: victim.capability, tenant_id: victim.tenant };
    const page = await attacker.call('queryCatalog', {
      query,
      headers: { 'x-tenant-id': victim.tenant, 'x-fleetproof-tenant': victim.tenant },
    });
    // queryCatalog declares no tenant_id, so the parameter is ignored ([wire-query]), as the headers are: the attacker's own view.
    expectEqual(expectOk(page).total, 0, "matches of the victim's capability in the attacker's catalog", page.exchange);

    const single = await attacker.call('getCatalogCapability', {
      params: { capability_id: victim.capability },
      headers: { 'x-tenant-id': victim.tenant },
    });
    expectError(single, 'NOT_FOUND', undefined, "the victim's capability read by the attacker");
  },
});
