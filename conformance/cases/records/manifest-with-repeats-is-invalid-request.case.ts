import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOneOf } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/manifest-with-repeats-is-invalid-request',
  clause: 'records-version-manifest-shape',
  category: 'records',
  description: 'a manifest with no profile, a profile twice or a capability id twice is 400',
  async run(ctx) {
    const type = await ctx.fx.type();
    const cap = ctx.fx.capability();
    const attempts: Array<[string, Parameters<typeof ctx.build.version>[2], Parameters<typeof ctx.build.version>[3]]> = [
      ['a capability twice', [cap, cap], {}],
      ['the same id with different content', [cap, { ...cap, name: 'another name' }], {}],
      ['a profile twice', [cap], { profiles: ['p.one', 'p.one'] }],
      ['no profile', [cap], { profiles: [] }],
    ];
    for (const [what, capabilities, over] of attempts) {
      const v = ctx.build.version(ctx.ids.version(), type.id, capabilities, over);
      const reply = await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: v });
      // Two capabilities where the registry takes one also break [records-version-limits]: either error is right ([error-precedence]).
      if (capabilities.length > ctx.limits.max_capabilities_per_version)
        expectOneOf(reply, ['INVALID_REQUEST', 'ADMISSION_REJECTED'], what);
      else expectError(reply, 'INVALID_REQUEST', undefined, what);
    }
  },
});
