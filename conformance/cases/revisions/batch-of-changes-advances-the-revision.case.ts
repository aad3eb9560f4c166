import type { BatchItem } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectEqual, expectOk, expectTrue } from '../../harness/expect.ts';

export default defineCase({
  id: 'revisions/batch-of-changes-advances-the-revision',
  clause: 'revision-advances',
  category: 'revisions',
  flags: ['serial'],
  description: 'a batch that changes several catalog records advances the revision at least once',
  async run(ctx) {
    const typeId = ctx.ids.type();
    const capability = ctx.fx.capability();
    const version = ctx.build.version(ctx.ids.version(), typeId, [capability]);
    const items: BatchItem[] = [
      { op: 'put_connector_type', record: ctx.build.connectorType(typeId) },
      { op: 'admit_version', record: version },
      { op: 'put_admission_policy', record: ctx.build.policy(ctx.ids.policy()) },
    ];
    const before = await ctx.fx.revision();
    const reply = await ctx.as({ roles: ['registry:admin'] }).call('applyBatch', { body: { items } });
    const result = expectOk(reply);
    expectEqual(
      result.results.map((r) => r.outcome),
      ['applied', 'applied', 'applied'],
      'item outcomes',
      reply.exchange,
    );
    expectTrue(result.catalog_revision > before, `batch result revision ${result.catalog_revision} is not above ${before}`, reply.exchange);
    expectAtLeast(await ctx.fx.revision(), result.catalog_revision, 'revision read after the batch');
  },
});
