import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectTrue } from '../../harness/expect.ts';

/** JSON text of a JSON Schema whose objects nest `depth` levels, built as text so the harness never recurses over it. */
function nestedSchemaText(depth: number): string {
  return '{"type":"object","properties":{"inner":'.repeat(depth) + '{"type":"string"}' + '}}'.repeat(depth);
}

export default defineCase({
  id: 'wire/deep-nesting-is-invalid-request',
  clause: 'wire-nesting',
  category: 'wire',
  description: 'a version whose capability schema nests thousands of levels deep is 400, not a crash',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    for (const depth of [200, 5_000]) {
      const versionId = ctx.ids.version();
      const capability = ctx.build.capability(ctx.ids.capability(), { input_schema: { type: 'object' } });
      const version = ctx.build.version(versionId, fleet.type.id, [capability], { version: ctx.ids.semver() });
      const rawBody = JSON.stringify(version).replace('{"type":"object"}', nestedSchemaText(depth));
      const reply = await ctx.admin.call('admitVersion', { params: { version_id: versionId }, rawBody });
      expectTrue(reply.status < 500, `a ${depth}-level body answered ${reply.status}`, reply.exchange);
      expectError(reply, 'INVALID_REQUEST', undefined, `${depth} levels`);
      expectError(await ctx.reader.call('getVersion', { params: { version_id: versionId } }), 'NOT_FOUND', undefined, `version nested ${depth} deep`);
    }
  },
});
