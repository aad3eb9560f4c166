import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/policy-change-needs-larger-revision',
  clause: 'records-policy-revision',
  category: 'records',
  description: 'changing an admission policy at an equal or smaller revision is 409; a larger one applies',
  async run(ctx) {
    const policy = await ctx.fx.policy({ revision: 3 });
    const params = { policy_ref: policy.policy_ref };
    for (const revision of [3, 2]) {
      expectError(
        await ctx.admin.call('putAdmissionPolicy', { params, body: { ...policy, revision, max_tenant_in_flight: 7 } }),
        'CONFLICT',
        undefined,
        `revision ${revision}`,
      );
    }
    expectError(
      await ctx.admin.call('putAdmissionPolicy', { params, body: { ...policy, enabled: false } }),
      'CONFLICT',
      undefined,
      'disabling at the same revision',
    );
    const applied = expectOk(
      await ctx.admin.call('putAdmissionPolicy', { params, body: { ...policy, revision: 4, max_tenant_in_flight: 7 } }),
    );
    expectEqual([applied.outcome, applied.record.max_tenant_in_flight], ['applied', 7], 'revision 4');
  },
});
