import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'revisions/results-and-pages-report-their-revision',
  clause: 'revision-in-results',
  category: 'revisions',
  description: 'write results and pages report a revision between the revisions read before and after them',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const r = fleet.replicas[0]!;
    const results = [
      async () =>
        expectOk(
          await ctx.admin.call('putInstance', { params: { instance_id: fleet.instance.id }, body: fleet.instance }),
          'unchanged instance',
        ).catalog_revision,
      async () =>
        expectOk(
          await ctx.admin.call('putInstance', {
            params: { instance_id: fleet.instance.id },
            body: { ...fleet.instance, config_revision: fleet.instance.config_revision + 1 },
          }),
        ).catalog_revision,
      async () =>
        expectOk(
          await ctx.lifecycle.call('reportHealth', {
            params: { replica_id: r.id },
            body: { health_revision: 2, status: 'ready', lease_expires_at: r.lease_expires_at, capacity: 4 },
          }),
        ).catalog_revision,
      async () =>
        expectOk(
          await ctx
            .as({ roles: ['registry:admin'] })
            .call('applyBatch', { body: { items: [{ op: 'put_connector_type', record: fleet.type }] } }),
        ).catalog_revision,
      async () => expectOk(await ctx.catalogFor(fleet.tenant).call('queryCatalog', { query: {} })).catalog_revision,
      async () =>
        expectOk(await ctx.catalogFor(fleet.tenant).call('getCatalogCapability', { params: { capability_id: fleet.capability } }))
          .catalog_revision,
    ];
    for (const [i, taken] of results.entries()) {
      const before = await ctx.fx.revision();
      const revision = await taken();
      const after = await ctx.fx.revision();
      expectAtLeast(revision, before, `revision of result ${i + 1} against the one read before`);
      expectAtMost(revision, after, `revision of result ${i + 1} against the one read after`);
    }
  },
});
