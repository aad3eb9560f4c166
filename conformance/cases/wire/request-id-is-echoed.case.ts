import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectTrue } from '../../harness/expect.ts';

export default defineCase({
  id: 'wire/request-id-is-echoed',
  clause: 'wire-request-id',
  category: 'wire',
  description: 'responses carry x-request-id, echoing a printable one the request supplied',
  async run(ctx) {
    const given = `${ctx.ids.prefix}.probe`;
    const echoed = await ctx.anonymous.call('getHealth', { headers: { 'x-request-id': given } });
    expectEqual(echoed.headers['x-request-id'], given, 'x-request-id of a request that supplied one', echoed.exchange);
    const error = await ctx.reader.call('getInstance', {
      params: { instance_id: ctx.ids.instance('absent') },
      headers: { 'x-request-id': given },
    });
    expectEqual(error.headers['x-request-id'], given, 'x-request-id of an error response', error.exchange);
    const fresh = await ctx.anonymous.call('getHealth');
    expectTrue(Boolean(fresh.headers['x-request-id']), 'a response to a request without x-request-id has one', fresh.exchange);
  },
});
