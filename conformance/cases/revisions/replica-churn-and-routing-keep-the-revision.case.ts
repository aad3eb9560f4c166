import { defineCase } from '../../harness/define-case.ts';
import { expectOk } from '../../harness/expect.ts';
import { expectRevisionKept } from '../../harness/observe.ts';

export default defineCase({
  id: 'revisions/replica-churn-and-routing-keep-the-revision',
  clause: 'revision-stable',
  category: 'revisions',
  flags: ['serial'],
  description: 'provisioning, heartbeats, drains, capacity changes, routing, settlement and expiry keep the revision',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 50 });
    const [first, second] = fleet.replicas.map((r) => r.id) as [string, string];
    await expectRevisionKept(ctx, 'replica churn, routing and lease expiry', async (attempt) => {
      await ctx.fx.replica(fleet.instance.id, fleet.version.id);
      await ctx.fx.health(first, { lease_expires_at: ctx.clock.at(3 * 3_600_000 + attempt) });
      await ctx.fx.health(first, { capacity: 50 + attempt });
      await ctx.fx.health(second, { status: attempt % 2 === 1 ? 'draining' : 'ready' });
      const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
      await ctx.fx.settle(view, 'outcome_unknown');
      await ctx.fx.resolve(fleet.tenant, fleet.capability, view.assignment.action_id);
      const stale = await ctx.fx.replica(fleet.instance.id, fleet.version.id, { lease_expires_at: ctx.clock.at(-600_000) });
      expectOk(await ctx.operator.call('expireLeases', { body: { limit: 1 } }));
      return stale;
    });
  },
});
