import { BURST_ROUNDS, withBurstLine } from '../../harness/burst.ts';
import { MINUTE } from '../../harness/clock.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectOk } from '../../harness/expect.ts';
import { expireUntilOffline } from '../../harness/leases.ts';

const SETTLEMENTS = 4;
const EXPIRIES = 4;

export default defineCase({
  id: 'leases/settlement-racing-expiry-releases-once',
  clause: 'lease-expiry-effect',
  category: 'leases',
  flags: ['concurrent', 'slow'],
  description: 'settlements and lease expiry racing over one reservation release it exactly once',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      capacity: 5,
      policy: { max_tenant_in_flight: 9, max_instance_in_flight: 9, circuit_failure_threshold: 10_000 },
    });
    const replica = fleet.replicas[0]!.id;
    const dispatch = ctx.dispatch(fleet.tenant);
    const limit = Math.min(100, ctx.limits.max_expiry_batch);
    await withBurstLine(ctx.tokens, SETTLEMENTS + EXPIRIES, [dispatch, ctx.operator], async (line) => {
      for (let round = 1; round <= BURST_ROUNDS; round++) {
        await ctx.fx.health(replica, { status: 'ready', lease_expires_at: ctx.clock.at(30 * MINUTE) });
        const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
        await ctx.fx.health(replica, { lease_expires_at: ctx.clock.at(-5 * MINUTE) });
        const settle = {
          params: { action_id: view.assignment.action_id },
          body: { assignment: view.assignment, outcome: 'completed' as const },
        };
        const [settlements, expiries] = await line.fire((via) => [
          Promise.all(Array.from({ length: SETTLEMENTS }, () => via(dispatch).call('settleRoute', settle))),
          Promise.all(Array.from({ length: EXPIRIES }, () => via(ctx.operator).call('expireLeases', { body: { limit } }))),
        ]);
        const released = settlements.filter((r) => expectOk(r, `a settlement of burst ${round}`).released).length;
        for (const r of expiries) expectOk(r, `a lease expiry of burst ${round}`);
        expectAtMost(released, 1, `settlements of burst ${round} that released`);
        await expireUntilOffline(ctx, [replica], limit);
        const stored = await ctx.fx.route(fleet.tenant, view.assignment.action_id);
        expectEqual(
          [stored.reserved, stored.last_settlement],
          [false, released === 1 ? 'completed' : 'lease_expired'],
          `the route after burst ${round}`,
        );
        const counters = [
          await ctx.fx.counter('tenant', fleet.tenant),
          await ctx.fx.counter('instance', fleet.instance.id),
          await ctx.fx.active(replica),
        ];
        expectEqual(counters, [0, 0, 0], `tenant and instance counters and replica units after burst ${round}`);
      }
    });
  },
});
