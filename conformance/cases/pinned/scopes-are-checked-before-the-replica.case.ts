import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/scopes-are-checked-before-the-replica',
  clause: 'pinned-precedence',
  category: 'pinned',
  description: 'a retry failing both its admission scopes and its replica is CAPACITY_EXCEEDED',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 5, policy: { max_tenant_retry_in_flight: 1 } });
    const [a, b] = [
      await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()),
      await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()),
    ];
    await ctx.fx.settle(a);
    await ctx.fx.settle(b);
    await ctx.fx.resolve(fleet.tenant, fleet.capability, a.assignment.action_id);
    await ctx.fx.health(fleet.replicas[0]!.id, { status: 'offline' });
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: b.assignment.action_id, capability_id: fleet.capability } });
    expectError(reply, 'CAPACITY_EXCEEDED', { scope: 'tenant_retry' }, 'retry budget spent and pinned replica offline');
  },
});
