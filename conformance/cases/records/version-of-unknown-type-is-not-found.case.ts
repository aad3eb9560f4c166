import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/version-of-unknown-type-is-not-found',
  clause: 'records-version-type-exists',
  category: 'records',
  description: 'admitting a version of a connector type that does not exist is 404',
  async run(ctx) {
    const version = ctx.build.version(ctx.ids.version(), ctx.ids.type('absent'), [ctx.fx.capability()]);
    expectError(await ctx.admin.call('admitVersion', { params: { version_id: version.id }, body: version }), 'NOT_FOUND');
    expectError(
      await ctx.reader.call('getVersion', { params: { version_id: version.id } }),
      'NOT_FOUND',
      undefined,
      'the version afterwards',
    );
  },
});
