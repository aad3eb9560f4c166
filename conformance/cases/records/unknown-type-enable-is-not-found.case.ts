import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/unknown-type-enable-is-not-found',
  clause: 'records-type-enable',
  category: 'records',
  description: 'enabling or disabling a connector type that does not exist is 404',
  async run(ctx) {
    const type_id = ctx.ids.type('absent');
    for (const enabled of [true, false]) {
      expectError(
        await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id }, body: { enabled } }),
        'NOT_FOUND',
        undefined,
        `enabled ${enabled}`,
      );
    }
    expectError(await ctx.reader.call('getConnectorType', { params: { type_id } }), 'NOT_FOUND', undefined, 'the type afterwards');
  },
});
