import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';

export default defineCase({
  id: 'records/oversized-capability-is-admission-rejected',
  clause: 'records-version-limits',
  category: 'records',
  flags: ['slow'],
  description: 'a capability definition above max_capability_bytes is 422',
  async run(ctx) {
    const { max_capability_bytes: max, max_body_bytes: body, max_manifest_bytes: manifest } = ctx.limits;
    // Above the manifest limit too, the refusal could be for the manifest alone; above the body limit it is a 413.
    if (max + 4096 > Math.min(body, manifest)) throw new NotProvocable(`max_capability_bytes ${max} cannot be exceeded within max_body_bytes ${body} and max_manifest_bytes ${manifest}`);
    const type = await ctx.fx.type();
    // The input schema is free-form JSON, so it can carry the bulk without breaking any other bound.
    const big = ctx.fx.capability({ input_schema: { type: 'object', description: 'x'.repeat(max) } });
    const v = ctx.build.version(ctx.ids.version(), type.id, [big]);
    expectError(await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: v }), 'ADMISSION_REJECTED');
    expectError(await ctx.reader.call('getVersion', { params: { version_id: v.id } }), 'NOT_FOUND', undefined, 'the version afterwards');
  },
});
