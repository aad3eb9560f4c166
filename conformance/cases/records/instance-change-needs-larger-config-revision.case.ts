import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/instance-change-needs-larger-config-revision',
  clause: 'records-instance-revision',
  category: 'records',
  description: 'changing an instance with an equal or smaller config_revision is 409; a larger one applies',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const params = { instance_id: fleet.instance.id };
    const changed = { ...fleet.instance, secret_provider_ref: `vault://${fleet.tenant}/rotated` };
    expectOk(
      await ctx.admin.call('putInstance', { params, body: { ...fleet.instance, config_revision: 3 } }),
      'raising the revision alone',
    );
    for (const config_revision of [3, 2, 0]) {
      expectError(
        await ctx.admin.call('putInstance', { params, body: { ...changed, config_revision } }),
        'CONFLICT',
        undefined,
        `config_revision ${config_revision}`,
      );
    }
    const applied = expectOk(await ctx.admin.call('putInstance', { params, body: { ...changed, config_revision: 4 } }));
    expectEqual([applied.outcome, applied.record.secret_provider_ref], ['applied', changed.secret_provider_ref], 'config_revision 4');
  },
});
