import { openApiDocument } from '../../../contract/openapi.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk, expectTrue } from '../../harness/expect.ts';

export default defineCase({
  id: 'operations/openapi-document-is-served',
  clause: 'ops-openapi',
  category: 'operations',
  description: 'GET /openapi.json serves the OpenAPI document of fleetproof-registry/v1',
  async run(ctx) {
    const reply = await ctx.anonymous.call('getOpenApi');
    const doc = expectOk(reply) as { openapi?: string; info?: { version?: string }; paths?: Record<string, unknown> };
    expectTrue(typeof doc.openapi === 'string' && doc.openapi.startsWith('3.'), 'an OpenAPI 3 document', reply.exchange);
    expectEqual(doc.info?.version, openApiDocument().info.version, 'info.version', reply.exchange);
    const missing = Object.keys(openApiDocument().paths).filter((p) => !(p in (doc.paths ?? {})));
    expectEqual(missing, [], 'contract paths missing from the served document', reply.exchange);
  },
});
