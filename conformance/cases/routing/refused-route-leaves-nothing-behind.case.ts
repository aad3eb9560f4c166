import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';
import { snapshotFleet } from '../../harness/snapshot.ts';

export default defineCase({
  id: 'routing/refused-route-leaves-nothing-behind',
  clause: 'route-atomic',
  category: 'routing',
  description: 'a new action refused at its last scope leaves no route, counter or replica unit behind',
  async run(ctx) {
    // The binding scope is checked last; tenant and instance would have had room.
    const fleet = await ctx.fx.fleet({
      capacity: 5,
      policy: { max_tenant_in_flight: 10, max_instance_in_flight: 10, max_binding_in_flight: 1 },
    });
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const before = await snapshotFleet(ctx, fleet);
    const action = ctx.ids.action();
    const reply = await ctx.dispatch(fleet.tenant).call('resolveRoute', { body: { action_id: action, capability_id: fleet.capability } });
    expectError(reply, 'CAPACITY_EXCEEDED', { scope: 'binding' });
    expectIdentical(await snapshotFleet(ctx, fleet), before, 'the fleet after the refusal');
    expectError(
      await ctx.dispatch(fleet.tenant).call('getRoute', { params: { action_id: action } }),
      'NOT_FOUND',
      undefined,
      'the refused action',
    );
  },
});
