import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'leases/expired-lease-takes-no-new-route',
  clause: 'lease-expired-not-routable',
  category: 'leases',
  description: 'a replica reporting ready with a lease minutes in the past takes no new action',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: [{ status: 'ready', lease_expires_at: ctx.clock.at(-5 * MINUTE) }], capacity: 10 });
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id });
    expectEqual(await ctx.fx.active(fleet.replicas[0]!.id), 0, 'active assignments of the expired replica');
  },
});
