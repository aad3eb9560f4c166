import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectTrue } from '../../harness/expect.ts';

const OPEN = '{"type":"object","properties":{"inner":';
const CLOSE = '}}';

/** JSON text of a JSON Schema whose objects nest 2 × `repeats` levels, built as text so the harness never recurses over it. */
function nestedSchemaText(repeats: number): string {
  return OPEN.repeat(repeats) + '{"type":"string"}' + CLOSE.repeat(repeats);
}

export default defineCase({
  id: 'wire/deep-nesting-is-invalid-request',
  clause: 'wire-nesting',
  category: 'wire',
  description: 'a version whose capability schema nests past 128 levels, up to the body limit, is 400, not a crash',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const probe = (id: string) => ctx.build.version(id, fleet.type.id, [ctx.build.capability(ctx.ids.capability(), { input_schema: { type: 'object' } })], { version: ctx.ids.semver() });
    // Just past the bound (200 levels), and as deep as a body within max_body_bytes can hold (at most 10 000
    // levels): a body above the limit could be refused for its size instead ([error-precedence]).
    const room = Math.floor((ctx.limits.max_body_bytes - Buffer.byteLength(JSON.stringify(probe(ctx.ids.version()))) - 1024) / (OPEN.length + CLOSE.length));
    for (const repeats of new Set([100, Math.max(100, Math.min(5_000, room))])) {
      const versionId = ctx.ids.version();
      const version = probe(versionId);
      const rawBody = JSON.stringify(version).replace('{"type":"object"}', nestedSchemaText(repeats));
      const reply = await ctx.admin.call('admitVersion', { params: { version_id: versionId }, rawBody });
      expectTrue(reply.status < 500, `a ${2 * repeats}-level body answered ${reply.status}`, reply.exchange);
      expectError(reply, 'INVALID_REQUEST', undefined, `${2 * repeats} levels`);
      expectError(await ctx.reader.call('getVersion', { params: { version_id: versionId } }), 'NOT_FOUND', undefined, `version nested ${2 * repeats} deep`);
    }
  },
});
