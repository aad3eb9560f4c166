import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/version-of-disabled-type-is-admission-rejected',
  clause: 'records-version-type-exists',
  category: 'records',
  description: 'admitting a version of a disabled connector type is 422 ADMISSION_REJECTED',
  async run(ctx) {
    const type = await ctx.fx.type({ enabled: false });
    const version = ctx.build.version(ctx.ids.version(), type.id, [ctx.fx.capability()]);
    expectError(await ctx.admin.call('admitVersion', { params: { version_id: version.id }, body: version }), 'ADMISSION_REJECTED');
    expectError(
      await ctx.reader.call('getVersion', { params: { version_id: version.id } }),
      'NOT_FOUND',
      undefined,
      'the version afterwards',
    );
  },
});
