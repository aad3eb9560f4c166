import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

/** The spellings [wire-json] accepts: no parameter, or charset utf-8 in any ASCII case, quoted or not. */
const ACCEPTED = [
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON; Charset=UTF-8',
  'application/json;charset="utf-8"',
];

export default defineCase({
  id: 'wire/utf-8-charset-in-any-spelling-is-accepted',
  clause: 'wire-json',
  category: 'wire',
  description: 'application/json bare or with charset=utf-8 in any case, quoted or not, is accepted',
  async run(ctx) {
    for (const [i, contentType] of ACCEPTED.entries()) {
      const type = ctx.build.connectorType(ctx.ids.type(`s${i}`));
      expectOk(
        await ctx.admin.call('putConnectorType', { params: { type_id: type.id }, rawBody: JSON.stringify(type), contentType }),
        `a JSON body labelled ${contentType}`,
      );
      const stored = expectOk(await ctx.reader.call('getConnectorType', { params: { type_id: type.id } }), 'the type afterwards');
      expectEqual(stored.id, type.id, `the type written with ${contentType}`);
    }
  },
});
