import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/other-tenants-binding-is-never-used',
  clause: 'route-binding-unavailable',
  category: 'routing',
  description: "a tenant never routes through another tenant's binding or an unbound implementation",
  async run(ctx) {
    const owner = await ctx.fx.fleet({ capacity: 5 });
    const stranger = ctx.ids.tenant('stranger');
    const reply = await ctx
      .dispatch(stranger)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: owner.capability } });
    expectError(reply, 'BINDING_UNAVAILABLE', { tenant_id: stranger, capability_id: owner.capability });
    expectEqual(await ctx.fx.active(owner.replicas[0]!.id), 0, "the owner's replica took nothing");
  },
});
