import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';
import { expectRevisionKept } from '../../harness/observe.ts';

export default defineCase({
  id: 'records/identical-put-keeps-the-revision',
  clause: 'records-identical-put',
  category: 'records',
  flags: ['serial'],
  description: 'an identical write does not advance the catalog revision',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const b = fleet.binding;
    await expectRevisionKept(ctx, 'identical type, version, instance and binding writes', async () => {
      for (const reply of [
        await ctx.admin.call('putConnectorType', { params: { type_id: fleet.type.id }, body: fleet.type }),
        await ctx.admin.call('admitVersion', { params: { version_id: fleet.version.id }, body: fleet.version }),
        await ctx.admin.call('putInstance', { params: { instance_id: fleet.instance.id }, body: fleet.instance }),
        await ctx.admin.call('putBinding', {
          params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
          body: b,
        }),
      ]) {
        expectEqual(expectOk(reply).outcome, 'unchanged', 'outcome', reply.exchange);
      }
    });
  },
});
