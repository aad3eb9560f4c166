import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/assignment-pins-its-admission',
  clause: 'assignment-admission',
  category: 'routing',
  description: "admission pins the policy's ref, revision, scopes, retry scope and circuit settings",
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      policy: { revision: 3, max_tenant_in_flight: 21, max_tenant_retry_in_flight: 6, circuit_failure_threshold: 4, circuit_open_ms: 2500 },
    });
    const a = (await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action())).assignment;
    expectEqual(
      a.admission,
      {
        policy_ref: fleet.policy!.policy_ref,
        policy_revision: 3,
        base_scopes: [{ kind: 'tenant', key: fleet.tenant, limit: 21 }],
        retry_scope: { kind: 'tenant_retry', key: fleet.tenant, limit: 6 },
        circuit_failure_threshold: 4,
        circuit_open_ms: 2500,
      },
      'admission',
    );
  },
});
