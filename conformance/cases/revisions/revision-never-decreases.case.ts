import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'revisions/revision-never-decreases',
  clause: 'revision-monotonic',
  category: 'revisions',
  description: 'the catalog revision seen in pages and write results never goes down',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const policy = await ctx.fx.policy();
    const catalog = ctx.catalogFor(fleet.tenant);
    let last = -1;
    const see = (revision: number, where: string) => {
      expectAtLeast(revision, last, `revision ${where} after ${last}`);
      last = revision;
    };
    for (let i = 2; i <= 12; i++) {
      see(expectOk(await catalog.call('queryCatalog', { query: { limit: 1 } })).catalog_revision, 'of a page');
      const write = expectOk(
        await ctx.admin.call('putAdmissionPolicy', { params: { policy_ref: policy.policy_ref }, body: { ...policy, revision: i } }),
      );
      see(write.catalog_revision, 'of a write result');
      const reads = await Promise.all(Array.from({ length: 4 }, () => catalog.call('queryCatalog', { query: { limit: 1 } })));
      const seen = reads.map((r) => expectOk(r).catalog_revision);
      see(Math.min(...seen), 'of concurrent pages');
      last = Math.max(...seen);
    }
  },
});
