import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'leases/expired-lease-takes-no-retry',
  clause: 'lease-expired-not-routable',
  category: 'leases',
  description: 'a retry pinned to a replica whose lease has expired is REPLICA_UNAVAILABLE',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10 });
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(view);
    await ctx.fx.health(view.assignment.replica_id, { status: 'ready', lease_expires_at: ctx.clock.at(-5 * MINUTE) });
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: view.assignment.action_id, capability_id: fleet.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id });
    expectEqual((await ctx.fx.route(fleet.tenant, view.assignment.action_id)).reserved, false, 'the refused retry holds nothing');
  },
});
