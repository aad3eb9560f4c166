import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/changed-type-is-conflict',
  clause: 'records-type-immutable',
  category: 'records',
  description: 'putting an existing connector type with any field changed, enabled included, is 409',
  async run(ctx) {
    const type = await ctx.fx.type();
    for (const change of [{ name: 'renamed type' }, { owner: 'another owner' }, { enabled: false }]) {
      const reply = await ctx.admin.call('putConnectorType', { params: { type_id: type.id }, body: { ...type, ...change } });
      expectError(reply, 'CONFLICT', undefined, `type with ${JSON.stringify(change)}`);
    }
    expectIdentical(expectOk(await ctx.reader.call('getConnectorType', { params: { type_id: type.id } })), type, 'the stored type');
  },
});
