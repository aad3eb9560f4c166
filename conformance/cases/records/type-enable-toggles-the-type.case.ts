import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/type-enable-toggles-the-type',
  clause: 'records-type-enable',
  category: 'records',
  description: 'the enable operation changes enabled; setting the value it has is unchanged',
  async run(ctx) {
    const type = await ctx.fx.type();
    const params = { type_id: type.id };
    const off = expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params, body: { enabled: false } }));
    expectEqual([off.outcome, off.record.enabled], ['applied', false], 'disabling');
    const again = expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params, body: { enabled: false } }));
    expectEqual([again.outcome, again.record.enabled], ['unchanged', false], 'disabling again');
    const on = expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params, body: { enabled: true } }));
    expectEqual([on.outcome, on.record], ['applied', type], 'enabling');
  },
});
