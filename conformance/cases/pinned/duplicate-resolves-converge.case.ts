import { expectBurstRefusal } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/duplicate-resolves-converge',
  clause: 'pinned-reserved',
  category: 'pinned',
  flags: ['concurrent'],
  description: '32 parallel resolves of one new action converge on one identical assignment holding one unit',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 4, capacity: 50, policy: { max_tenant_in_flight: 100 } });
    const action = ctx.ids.action();
    const dispatch = ctx.dispatch(fleet.tenant);
    const body = { action_id: action, capability_id: fleet.capability };
    const replies = await Promise.all(Array.from({ length: 32 }, () => dispatch.call('resolveRoute', { body })));
    // Contention may refuse some with REPLICA_UNAVAILABLE ([route-contention]); every success must be the one assignment.
    const succeeded = replies.filter((r) => r.status === 200);
    for (const r of replies) if (r.status !== 200) expectBurstRefusal(r, { instanceId: fleet.instance.id }, 'a duplicate resolve');
    const first = succeeded.length > 0 ? expectOk(succeeded[0]!, 'a duplicate resolve') : await ctx.fx.resolve(fleet.tenant, fleet.capability, action);
    for (const [i, r] of succeeded.entries()) expectIdentical(expectOk(r, 'a duplicate resolve').assignment, first.assignment, `assignment of success ${i + 1}`, r.exchange);
    expectIdentical((await ctx.fx.resolve(fleet.tenant, fleet.capability, action)).assignment, first.assignment, 'a later resolve of the action');
    expectIdentical((await ctx.fx.route(fleet.tenant, action)).assignment, first.assignment, 'the stored assignment');
    const active = await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)));
    expectEqual(active.reduce((a, b) => a + b, 0), 1, `active assignments over the replicas (${active.join(', ')})`);
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 1, 'tenant counter');
  },
});
