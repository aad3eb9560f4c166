import { ROLES } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'wire/unsupported-method-is-method-not-allowed',
  clause: 'wire-unknown-route',
  category: 'wire',
  description: 'a known path with a method it does not support is 405 METHOD_NOT_ALLOWED',
  async run(ctx) {
    const token = await ctx.tokens.mint({ roles: ROLES, tenant: ctx.ids.tenant() });
    const requests: Array<[string, string]> = [
      ['DELETE', `/v1/connector-types/${ctx.ids.type()}`],
      ['PATCH', `/v1/instances/${ctx.ids.instance()}`],
      ['POST', '/v1/catalog'],
      ['PUT', '/v1/fleet/status'],
      ['GET', '/v1/fleet/lease-expiry'],
      ['DELETE', `/v1/routes/${ctx.ids.action()}`],
    ];
    for (const [method, path] of requests) {
      expectError(await ctx.api.raw(method, path, { as: { token } }), 'METHOD_NOT_ALLOWED', undefined, `${method} ${path}`);
    }
  },
});
