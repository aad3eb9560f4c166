import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/policy-bounds-are-checked',
  clause: 'records-policy-bounds',
  category: 'records',
  description: 'an admission policy with a revision, limit, threshold or open period out of range is 400',
  async run(ctx) {
    const ref = ctx.ids.policy();
    const bad = [
      { revision: 0 },
      { max_tenant_in_flight: 0 },
      { max_binding_in_flight: 4294967296 },
      { max_tenant_retry_in_flight: -1 },
      { circuit_failure_threshold: 0 },
      { circuit_open_ms: 99 },
      { circuit_open_ms: 3600001 },
    ];
    for (const change of bad) {
      const body = ctx.build.policy(ref, change);
      expectError(
        await ctx.admin.call('putAdmissionPolicy', { params: { policy_ref: ref }, body }),
        'INVALID_REQUEST',
        undefined,
        JSON.stringify(change),
      );
    }
    expectError(
      await ctx.reader.call('getAdmissionPolicy', { params: { policy_ref: ref } }),
      'NOT_FOUND',
      undefined,
      'the policy after the refusals',
    );
    const edges = ctx.build.policy(ref, {
      max_global_in_flight: 1,
      max_tenant_in_flight: 4294967295,
      circuit_failure_threshold: 1,
      circuit_open_ms: 100,
    });
    expectOk(await ctx.admin.call('putAdmissionPolicy', { params: { policy_ref: ref }, body: edges }), 'a policy at the bounds');
  },
});
