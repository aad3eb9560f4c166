import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'wire/unknown-path-is-not-found',
  clause: 'wire-unknown-route',
  category: 'wire',
  description: 'a path that names no operation is 404 NOT_FOUND',
  async run(ctx) {
    const token = await ctx.tokens.mint({ roles: ['registry:admin', 'registry:reader'] });
    const paths = [
      '/v1/nothing-here',
      '/v2/catalog',
      '/v1/connector-types',
      `/v1/connector-types/${ctx.ids.type()}/extra/segments`,
      '/v1/routes/a/b/c',
    ];
    for (const path of paths) {
      expectError(await ctx.api.raw('GET', path, { as: { token } }), 'NOT_FOUND', undefined, `GET ${path}`);
    }
  },
});
