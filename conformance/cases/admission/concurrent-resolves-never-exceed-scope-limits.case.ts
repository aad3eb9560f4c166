import { expectBurstRefusal, fillSequentially, resolveWithRetries } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/concurrent-resolves-never-exceed-scope-limits',
  clause: 'admission-never-overbooked',
  category: 'admission',
  flags: ['concurrent'],
  description: 'with an instance limit of 5, 40 parallel resolves admit at most 5 and the counter never passes 5',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 100, policy: { max_instance_in_flight: 5 } });
    const dispatch = ctx.dispatch(fleet.tenant);
    const fresh = () => ({ action_id: ctx.ids.action(), capability_id: fleet.capability });
    const held = async () => {
      const active = await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)));
      return { counter: await ctx.fx.counter('instance', fleet.instance.id), units: active.reduce((a, b) => a + b, 0) };
    };
    const replies = await Promise.all(Array.from({ length: 40 }, () => dispatch.call('resolveRoute', { body: fresh() })));
    for (const r of replies.filter((x) => x.status !== 200)) expectBurstRefusal(r, { scope: 'instance', instanceId: fleet.instance.id }, 'a parallel resolve refused');
    const admitted = replies.filter((r) => r.status === 200).length;
    expectAtMost(admitted, 5, 'parallel resolves admitted under an instance limit of 5');
    expectEqual(await held(), { counter: admitted, units: admitted }, `instance counter and replica units after ${admitted} parallel routes`);
    // Contention may refuse below the limit; one at a time, exactly 5 fit and the sixth is refused for the instance.
    await fillSequentially(ctx, dispatch, 5 - admitted, fresh, 'a resolve below the instance limit');
    expectError(await resolveWithRetries(ctx, dispatch, fresh()), 'CAPACITY_EXCEEDED', { scope: 'instance' }, 'a resolve at the instance limit');
    expectEqual(await held(), { counter: 5, units: 5 }, 'instance counter and replica units at the limit');
  },
});
