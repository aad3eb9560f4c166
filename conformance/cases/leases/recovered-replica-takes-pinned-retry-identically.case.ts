import { defineCase } from '../../harness/define-case.ts';
import { HOUR, MINUTE } from '../../harness/clock.ts';
import { expectEqual, expectError, expectIdentical } from '../../harness/expect.ts';
import { expireUntilOffline } from '../../harness/leases.ts';

export default defineCase({
  id: 'leases/recovered-replica-takes-pinned-retry-identically',
  clause: 'lease-expiry-keeps-routes',
  category: 'leases',
  description: 'expiry never rewrites an assignment; once the replica is ready again a retry returns it identical',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 5, policy: { max_tenant_retry_in_flight: 9 } });
    const replica = fleet.replicas[0]!.id;
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.health(replica, { lease_expires_at: ctx.clock.at(-5 * MINUTE) });
    await expireUntilOffline(ctx, [replica]);
    expectIdentical(
      (await ctx.fx.route(fleet.tenant, view.assignment.action_id)).assignment,
      view.assignment,
      'the assignment after expiry',
    );
    const early = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: view.assignment.action_id, capability_id: fleet.capability } });
    expectError(early, 'REPLICA_UNAVAILABLE', undefined, 'a retry while the replica is offline');
    await ctx.fx.health(replica, { status: 'ready', lease_expires_at: ctx.clock.at(2 * HOUR) });
    const retry = await ctx.fx.resolve(fleet.tenant, fleet.capability, view.assignment.action_id);
    expectIdentical(retry.assignment, view.assignment, 'the retry once the replica is back');
    expectEqual(await ctx.fx.counter('tenant_retry', fleet.tenant), 1, 'the retry after expiry counts against the retry budget');
  },
});
