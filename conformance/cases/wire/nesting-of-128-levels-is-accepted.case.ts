import { defineCase } from '../../harness/define-case.ts';
import { expectOk } from '../../harness/expect.ts';
import { versionNestedTo } from '../../harness/nesting.ts';

export default defineCase({
  id: 'wire/nesting-of-128-levels-is-accepted',
  clause: 'wire-nesting',
  category: 'wire',
  description: 'a version admission whose body nests exactly 128 levels deep, valid otherwise, is admitted',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const version = versionNestedTo(ctx, fleet.type.id, 128);
    expectOk(await ctx.admin.call('admitVersion', { params: { version_id: version.id }, body: version }), 'a body 128 levels deep');
    expectOk(await ctx.reader.call('getVersion', { params: { version_id: version.id } }), 'the version admitted 128 levels deep');
  },
});
