import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/duplicate-version-string-is-conflict',
  clause: 'records-version-unique',
  category: 'records',
  description: 'a second version of one type with the same version string is 409; another type may reuse it',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const twin = ctx.build.version(ctx.ids.version(), fleet.type.id, fleet.capabilities, { version: fleet.version.version });
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: twin.id }, body: twin }),
      'CONFLICT',
      undefined,
      'same type, same version string',
    );
    const other = await ctx.fx.type();
    const reuse = ctx.build.version(ctx.ids.version(), other.id, fleet.capabilities, { version: fleet.version.version });
    expectOk(
      await ctx.admin.call('admitVersion', { params: { version_id: reuse.id }, body: reuse }),
      'the same version string under another type',
    );
  },
});
