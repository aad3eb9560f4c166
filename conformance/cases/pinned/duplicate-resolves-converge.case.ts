import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/duplicate-resolves-converge',
  clause: 'pinned-reserved',
  category: 'pinned',
  flags: ['concurrent'],
  description: '32 parallel resolves of one new action all return one identical assignment holding one unit',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 4, capacity: 50, policy: { max_tenant_in_flight: 100 } });
    const action = ctx.ids.action();
    const dispatch = ctx.dispatch(fleet.tenant);
    const replies = await Promise.all(Array.from({ length: 32 }, () => dispatch.call('resolveRoute', { body: { action_id: action, capability_id: fleet.capability } })));
    const views = replies.map((r) => expectOk(r, 'a duplicate resolve'));
    for (const [i, v] of views.entries()) expectIdentical(v.assignment, views[0]!.assignment, `assignment of resolve ${i + 1}`, replies[i]!.exchange);
    expectIdentical((await ctx.fx.route(fleet.tenant, action)).assignment, views[0]!.assignment, 'the stored assignment');
    const active = await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)));
    expectEqual(active.reduce((a, b) => a + b, 0), 1, `active assignments over the replicas (${active.join(', ')})`);
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 1, 'tenant counter');
  },
});
