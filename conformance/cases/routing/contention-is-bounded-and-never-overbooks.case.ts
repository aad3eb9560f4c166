import { expectBurstRefusal, fillSequentially, heldUnits } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/contention-is-bounded-and-never-overbooks',
  clause: 'route-contention',
  category: 'routing',
  flags: ['concurrent'],
  description: '96 parallel resolves for 2 units all answer, as a route or REPLICA_UNAVAILABLE, and never overbook',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 1 });
    const dispatch = ctx.dispatch(fleet.tenant);
    const fresh = () => ({ action_id: ctx.ids.action(), capability_id: fleet.capability });
    const units = () => heldUnits(ctx, fleet.replicas.map((r) => r.id));
    const replies = await Promise.all(Array.from({ length: 96 }, () => dispatch.call('resolveRoute', { body: fresh() })));
    for (const r of replies.filter((x) => x.status !== 200)) expectBurstRefusal(r, { instanceId: fleet.instance.id }, 'a resolve that lost the race');
    const routed = replies.filter((r) => r.status === 200).length;
    expectAtMost(routed, 2, 'routes created for two units of capacity');
    expectEqual(await units(), routed, 'replica units held against routes created');
    // Losing every race is allowed; one at a time, both units fill and a third resolve finds no replica.
    await fillSequentially(ctx, dispatch, 2 - routed, fresh, 'a resolve while a unit is free');
    expectError(await dispatch.call('resolveRoute', { body: fresh() }), 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'a resolve with both units taken');
    expectEqual(await units(), 2, 'replica units with both replicas full');
  },
});
