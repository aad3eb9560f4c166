import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/single-read-returns-definition-and-revision',
  clause: 'catalog-get',
  category: 'catalog',
  description: 'reading a visible capability returns its definition and the current catalog revision',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const before = await ctx.fx.revision();
    const got = expectOk(await ctx.catalogFor(fleet.tenant).call('getCatalogCapability', { params: { capability_id: fleet.capability } }));
    const after = await ctx.fx.revision();
    expectEqual(got.definition.capability, fleet.capabilities[0], 'the definition');
    expectEqual(got.definition.contract_digest, ctx.build.digestOf(fleet.capabilities[0]), 'contract_digest');
    expectAtLeast(got.catalog_revision, before, 'revision against the one read before');
    expectAtMost(got.catalog_revision, after, 'revision against the one read after');
  },
});
