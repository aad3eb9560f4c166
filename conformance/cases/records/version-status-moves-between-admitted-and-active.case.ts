import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/version-status-moves-between-admitted-and-active',
  clause: 'records-version-status',
  category: 'records',
  description: 'a version moves freely between admitted and active; setting the current status is unchanged',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const params = { version_id: fleet.version.id };
    const steps: Array<['admitted' | 'active', 'applied' | 'unchanged']> = [
      ['admitted', 'applied'],
      ['admitted', 'unchanged'],
      ['active', 'applied'],
      ['active', 'unchanged'],
      ['admitted', 'applied'],
    ];
    for (const [status, outcome] of steps) {
      const result = expectOk(await ctx.admin.call('setVersionStatus', { params, body: { status } }), `status ${status}`);
      expectEqual([result.outcome, result.record.status], [outcome, status], `setting ${status}`);
    }
    expectEqual(expectOk(await ctx.reader.call('getVersion', { params })).status, 'admitted', 'status read back');
  },
});
