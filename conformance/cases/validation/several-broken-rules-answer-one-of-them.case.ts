import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOneOf } from '../../harness/expect.ts';

export default defineCase({
  id: 'validation/several-broken-rules-answer-one-of-them',
  clause: 'error-precedence',
  category: 'validation',
  description: 'a request breaking several rules answers with the error of one of them and changes nothing',
  async run(ctx) {
    const type = ctx.build.connectorType(ctx.ids.type());
    const other = ctx.ids.type();
    // A body key that differs from the path and an unknown field: both INVALID_REQUEST, by different rules.
    const keyAndField = await ctx.admin.call('putConnectorType', {
      params: { type_id: other },
      rawBody: JSON.stringify({ ...type, colour: 'red' }),
    });
    expectOneOf(keyAndField, ['INVALID_REQUEST'], 'a body whose key differs from the path, with an unknown field');
    // A media type that is not JSON and a body that is not JSON either.
    const mediaAndJson = await ctx.admin.call('putConnectorType', {
      params: { type_id: type.id },
      rawBody: '{not json',
      contentType: 'text/plain',
    });
    expectOneOf(mediaAndJson, ['UNSUPPORTED_MEDIA_TYPE', 'INVALID_REQUEST'], 'a text/plain body that is not JSON');
    // A path parameter outside its pattern ([wire-closed-records] or no such record) and an unknown field.
    const pathAndField = await ctx.admin.call('putConnectorType', {
      params: { type_id: 'ctype_has space' },
      rawBody: JSON.stringify({ ...type, id: 'ctype_has space', colour: 'red' }),
    });
    expectOneOf(pathAndField, ['INVALID_REQUEST', 'NOT_FOUND'], 'a malformed path parameter with an unknown field');
    // Authentication before the role: a forged token that also lacks the write's role is 401, never 403.
    const forged = await ctx.tokens.forged('unknown-key', { roles: ['registry:reader'] });
    expectError(
      await ctx.api.call('putConnectorType', {
        params: { type_id: type.id },
        body: type,
        as: { token: forged },
        refusedBeforeStorage: 'auth-before-state',
      }),
      'UNAUTHENTICATED',
      undefined,
      'a forged token without the role',
    );
    for (const id of [type.id, other])
      expectOneOf(await ctx.reader.call('getConnectorType', { params: { type_id: id } }), ['NOT_FOUND'], `type ${id} afterwards`);
  },
});
