import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/rollout-dropping-bound-capability-is-conflict',
  clause: 'records-instance-rollout',
  category: 'records',
  description: 'moving an instance to a version without a capability of an enabled binding is 409',
  async run(ctx) {
    const [kept, dropped] = [ctx.fx.capability(), ctx.fx.capability()];
    // Under max_capabilities_per_version 1 the rollout drops the one capability there is.
    const fleet = await ctx.fx.fleet({ capabilities: ctx.limits.max_capabilities_per_version >= 2 ? [kept, dropped] : [dropped] });
    const narrow = await ctx.fx.version(fleet.type.id, [kept]);
    const params = { instance_id: fleet.instance.id };
    const rollout = { ...fleet.instance, version_id: narrow.id, config_revision: 2 };
    expectError(
      await ctx.admin.call('putInstance', { params, body: rollout }),
      'CONFLICT',
      undefined,
      'rollout while the binding is enabled',
    );
    const b = fleet.bindings.find((x) => x.capability_id === dropped.id)!;
    const bindingParams = { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id };
    expectOk(
      await ctx.admin.call('putBinding', { params: bindingParams, body: { ...b, enabled: false, policy_revision: b.policy_revision + 1 } }),
    );
    expectOk(await ctx.admin.call('putInstance', { params, body: rollout }), 'rollout once that binding is disabled');
  },
});
