import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/revoked-version-is-terminal',
  clause: 'records-version-status',
  category: 'records',
  description: 'either status may move to revoked; changing the status of a revoked version is 409',
  async run(ctx) {
    const type = await ctx.fx.type();
    for (const start of ['admitted', 'active'] as const) {
      const v = await ctx.fx.version(type.id, [ctx.fx.capability()], { status: start });
      const params = { version_id: v.id };
      expectEqual(
        expectOk(await ctx.admin.call('setVersionStatus', { params, body: { status: 'revoked' } })).outcome,
        'applied',
        `revoking an ${start} version`,
      );
      for (const status of ['admitted', 'active'] as const) {
        expectError(await ctx.admin.call('setVersionStatus', { params, body: { status } }), 'CONFLICT', undefined, `revoked → ${status}`);
      }
      expectEqual(expectOk(await ctx.reader.call('getVersion', { params })).status, 'revoked', 'status read back');
    }
  },
});
