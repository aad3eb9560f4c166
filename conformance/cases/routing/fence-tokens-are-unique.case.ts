import { expectBurstRefusal, resolveForSetup } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';
import { resolveWithRetries } from '../../harness/retried-resolve.ts';

export default defineCase({
  id: 'routing/fence-tokens-are-unique',
  clause: 'assignment-fence-token',
  category: 'routing',
  flags: ['concurrent'],
  description: 'every assignment gets its own fence token, also when created in parallel',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 4, capacity: 100 });
    const other = await ctx.fx.fleet({ capacity: 100 });
    const burst = [...Array.from({ length: 40 }, () => fleet), ...Array.from({ length: 20 }, () => other)].map((f) => ({
      fleet: f,
      action: ctx.ids.action(),
    }));
    // Parallel on purpose. A resolve may still meet contention after its retries ([route-contention]); such a
    // refusal changed nothing, and the same resolve sent on its own must then succeed.
    const replies = await Promise.all(
      burst.map((b) => resolveWithRetries(ctx, ctx.dispatch(b.fleet.tenant), { action_id: b.action, capability_id: b.fleet.capability })),
    );
    const views = [];
    for (const [i, reply] of replies.entries()) {
      const { fleet: f, action } = burst[i]!;
      if (reply.status === 200) {
        views.push(expectOk(reply));
        continue;
      }
      expectBurstRefusal(reply, { instanceId: f.instance.id }, 'a resolve of the burst');
      views.push(await resolveForSetup(ctx, f.tenant, f.capability, action));
    }
    const tokens = new Set(views.map((v) => v.assignment.fence_token));
    expectEqual(tokens.size, views.length, 'distinct fence tokens among 60 new assignments');
  },
});
