import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/concurrent-resolves-never-exceed-scope-limits',
  clause: 'admission-never-overbooked',
  category: 'admission',
  flags: ['concurrent'],
  description: 'with an instance limit of 5, 40 parallel resolves admit exactly 5 and the counter never passes 5',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 100, policy: { max_instance_in_flight: 5 } });
    const dispatch = ctx.dispatch(fleet.tenant);
    const replies = await Promise.all(Array.from({ length: 40 }, () => dispatch.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } })));
    for (const r of replies.filter((x) => x.status !== 200)) expectError(r, 'CAPACITY_EXCEEDED', { scope: 'instance' }, 'a resolve beyond the instance limit');
    expectEqual(replies.filter((r) => r.status === 200).length, 5, 'admitted resolves');
    expectEqual(await ctx.fx.counter('instance', fleet.instance.id), 5, 'instance counter');
    const active = await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)));
    expectEqual(active.reduce((a, b) => a + b, 0), 5, 'replica units held');
  },
});
