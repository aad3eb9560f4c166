import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/unknown-version-status-change-is-refused',
  clause: 'records-version-status',
  category: 'records',
  description: 'a status change of an unknown version is 404; candidate or any other status is 400',
  async run(ctx) {
    const absent = { version_id: ctx.ids.version('absent') };
    expectError(
      await ctx.admin.call('setVersionStatus', { params: absent, body: { status: 'active' } }),
      'NOT_FOUND',
      undefined,
      'unknown version',
    );
    const fleet = await ctx.fx.fleet();
    const params = { version_id: fleet.version.id };
    for (const status of ['candidate', 'ACTIVE', 'deprecated', '']) {
      expectError(
        await ctx.admin.call('setVersionStatus', { params, body: unchecked({ status }) }),
        'INVALID_REQUEST',
        undefined,
        `status ${JSON.stringify(status)}`,
      );
    }
    expectEqual(expectOk(await ctx.reader.call('getVersion', { params })).status, 'active', 'status after the refusals');
  },
});
