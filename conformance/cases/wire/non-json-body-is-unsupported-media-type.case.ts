import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'wire/non-json-body-is-unsupported-media-type',
  clause: 'wire-json',
  category: 'wire',
  description: 'a request body sent as another media type is 415 and creates nothing',
  async run(ctx) {
    const type = ctx.build.connectorType(ctx.ids.type());
    const json = JSON.stringify(type);
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
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
