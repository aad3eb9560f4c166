import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

const MALFORMED: Array<[string, string | Buffer]> = [
  ['unterminated object', '{"id": "x"'],
  ['trailing content', '{"enabled": true}}'],
  ['single quotes', "{'enabled': true}"],
  ['empty body', ''],
  ['bare word', 'enabled'],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])],
];

export default defineCase({
  id: 'validation/malformed-json-is-invalid-request',
  clause: 'wire-malformed-json',
  category: 'validation',
  description: 'a body that is not well-formed UTF-8 JSON is 400 INVALID_REQUEST',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    for (const [what, rawBody] of MALFORMED) {
      const enable = await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, rawBody });
      expectError(enable, 'INVALID_REQUEST', undefined, `type enable with ${what}`);
      const resolve = await ctx.dispatch(fleet.tenant).call('resolveRoute', { rawBody });
      expectError(resolve, 'INVALID_REQUEST', undefined, `resolve with ${what}`);
    }
    const type = await ctx.reader.call('getConnectorType', { params: { type_id: fleet.type.id } });
    expectEqual(expectOk(type).enabled, true, 'the type after the refusals', type.exchange);
  },
});
