import { ERROR_CATALOGUE, type ErrorBody } from '../../../contract/errors.ts';
import type { Reply } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectTrue } from '../../harness/expect.ts';

export default defineCase({
  id: 'wire/error-responses-carry-the-envelope',
  clause: 'error-body',
  category: 'wire',
  description: 'errors are {"error":{code,message,...}} with the status the catalogue gives the code',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const replies: Array<Reply<never> | Reply<'raw'>> = [
      await ctx.anonymous.call('getInstance', { params: { instance_id: fleet.instance.id } }),
      await ctx.dispatch(fleet.tenant).call('getInstance', { params: { instance_id: fleet.instance.id } }),
      await ctx.reader.call('getInstance', { params: { instance_id: ctx.ids.instance('absent') } }),
      await ctx.admin.call('putConnectorType', { params: { type_id: fleet.type.id }, body: { ...fleet.type, owner: 'someone else' } }),
      await ctx.admin.call('putConnectorType', { params: { type_id: fleet.type.id }, rawBody: '{' }),
      await ctx
        .dispatch(fleet.tenant)
        .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: ctx.ids.capability('unbound') } }),
      await ctx.api.raw('GET', '/v1/no-such-operation', { as: null }),
    ] as never;
    for (const reply of replies) {
      const body = reply.json as ErrorBody;
      expectTrue(typeof body?.error?.message === 'string', 'error.message is a string', reply.exchange);
      expectEqual(reply.status, ERROR_CATALOGUE[body.error.code].status, `status of ${body.error.code}`, reply.exchange);
      expectEqual(Object.keys(body), ['error'], 'members of the error body', reply.exchange);
    }
  },
});
