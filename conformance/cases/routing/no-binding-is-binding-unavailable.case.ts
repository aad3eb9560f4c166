import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/no-binding-is-binding-unavailable',
  clause: 'route-binding-unavailable',
  category: 'routing',
  description: 'a new action for a capability the tenant has no binding for is 422 naming tenant and capability',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ bound: [] });
    const capability = fleet.capabilities[0]!.id;
    const action = ctx.ids.action();
    const reply = await ctx.dispatch(fleet.tenant).call('resolveRoute', { body: { action_id: action, capability_id: capability } });
    expectError(reply, 'BINDING_UNAVAILABLE', { tenant_id: fleet.tenant, capability_id: capability });
    const unknown = ctx.ids.capability('never-admitted');
    const none = await ctx.dispatch(fleet.tenant).call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: unknown } });
    expectError(none, 'BINDING_UNAVAILABLE', { tenant_id: fleet.tenant, capability_id: unknown }, 'a capability nobody implements');
    expectError(
      await ctx.dispatch(fleet.tenant).call('getRoute', { params: { action_id: action } }),
      'NOT_FOUND',
      undefined,
      'the refused action',
    );
  },
});
