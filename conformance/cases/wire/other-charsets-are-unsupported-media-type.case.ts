import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

/** Charsets other than UTF-8, each of which reads the ASCII body below as the same text. */
const OTHER_CHARSETS = ['iso-8859-1', 'us-ascii', 'utf-16', 'windows-1252', 'utf-8x', '"latin1"'];

export default defineCase({
  id: 'wire/other-charsets-are-unsupported-media-type',
  clause: 'wire-json',
  category: 'wire',
  description: 'application/json with a charset other than utf-8 is 415 and creates nothing',
  async run(ctx) {
    const type = ctx.build.connectorType(ctx.ids.type());
    // Plain ASCII, the same bytes in every charset named: only the label can make it a refusal.
    const json = JSON.stringify(type);
    for (const charset of OTHER_CHARSETS) {
      const contentType = `application/json; charset=${charset}`;
      const reply = await ctx.admin.call('putConnectorType', { params: { type_id: type.id }, rawBody: json, contentType });
      expectError(reply, 'UNSUPPORTED_MEDIA_TYPE', undefined, `a JSON body labelled ${contentType}`);
    }
    expectError(
      await ctx.reader.call('getConnectorType', { params: { type_id: type.id } }),
      'NOT_FOUND',
      undefined,
      'the type after the refusals',
    );
  },
});
