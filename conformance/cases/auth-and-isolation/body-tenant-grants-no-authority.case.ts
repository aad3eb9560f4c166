import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOneOf } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/body-tenant-grants-no-authority',
  clause: 'auth-tenant-from-token',
  category: 'auth-and-isolation',
  description: "a routing body naming another tenant is refused and never reaches that tenant's routes",
  async run(ctx) {
    const victim = await ctx.fx.fleet();
    const attacker = ctx.dispatch(ctx.ids.tenant('attacker'));
    const action = ctx.ids.action();
    const body = { action_id: action, capability_id: victim.capability, tenant_id: victim.tenant };
    // The body breaks its shape, and the attacker has no binding for the capability: either error is right
    // ([error-precedence]); what matters is that the victim's tenant is never reached.
    expectOneOf(
      await attacker.call('resolveRoute', { body: unchecked(body) }),
      ['INVALID_REQUEST', 'BINDING_UNAVAILABLE'],
      'resolve with tenant_id in the body',
    );
    const absent = await ctx.dispatch(victim.tenant).call('getRoute', { params: { action_id: action } });
    expectError(absent, 'NOT_FOUND', undefined, "the victim's route after the attempt");

    const held = await ctx.fx.resolve(victim.tenant, victim.capability, ctx.ids.action());
    const settle = { assignment: held.assignment, outcome: 'completed', tenant_id: victim.tenant };
    const settled = await attacker.call('settleRoute', { params: { action_id: held.assignment.action_id }, body: unchecked(settle) });
    // The body breaks its shape, and the route is another tenant's ([auth-route-isolation]): either error is right.
    expectOneOf(settled, ['INVALID_REQUEST', 'NOT_FOUND'], 'settlement with tenant_id in the body');
    const route = await ctx.fx.route(victim.tenant, held.assignment.action_id);
    expectEqual([route.reserved, route.last_settlement], [true, null], "the victim's route after the attacker's settlement");
  },
});
