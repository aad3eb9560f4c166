import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/foreign-owner-is-admission-rejected',
  clause: 'records-version-evidence',
  category: 'records',
  description: "an attestation whose owner is not the connector type's owner is 422",
  async run(ctx) {
    const type = await ctx.fx.type({ owner: `owner of ${ctx.ids.prefix}` });
    const version = ctx.build.version(ctx.ids.version(), type.id, [ctx.fx.capability()], { owner: 'an impostor' });
    expectError(await ctx.admin.call('admitVersion', { params: { version_id: version.id }, body: version }), 'ADMISSION_REJECTED');
    const lowered = ctx.build.version(ctx.ids.version(), type.id, [ctx.fx.capability()], {
      owner: type.owner.toUpperCase(),
      version: ctx.ids.semver(),
    });
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: lowered.id }, body: lowered }),
      'ADMISSION_REJECTED',
      undefined,
      'owner differing in case',
    );
  },
});
