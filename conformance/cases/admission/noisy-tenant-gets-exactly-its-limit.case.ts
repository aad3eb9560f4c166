import { BURST_ROUNDS, withBurstLine } from '../../harness/burst.ts';
import { expectBurstRefusal, fillSequentially, resolveForSetup, resolveWithRetries } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError, expectOk } from '../../harness/expect.ts';

const LIMIT = 4;
const BURST = 24;

export default defineCase({
  id: 'admission/noisy-tenant-gets-exactly-its-limit',
  clause: 'admission-all-or-nothing',
  category: 'admission',
  flags: ['concurrent', 'slow'],
  description: `tenant limit ${LIMIT}, bursts of ${BURST} resolves: at most ${LIMIT} admitted, exactly ${LIMIT} in all, no refusal reserves`,
  async run(ctx) {
    const noisy = await ctx.fx.fleet({ replicas: 4, capacity: 100, policy: { max_tenant_in_flight: LIMIT, max_instance_in_flight: 100 } });
    const calm = await ctx.fx.fleet({ capacity: 10, policy: { max_tenant_in_flight: LIMIT } });
    const dispatch = ctx.dispatch(noisy.tenant);
    const fresh = () => ({ action_id: ctx.ids.action(), capability_id: noisy.capability });
    const counters = async () => ({
      tenant: await ctx.fx.counter('tenant', noisy.tenant),
      instance: await ctx.fx.counter('instance', noisy.instance.id),
    });
    // The calm tenant routes while the noisy one presses its limit.
    const calmRoutes = Promise.all(
      Array.from({ length: LIMIT }, () => resolveForSetup(ctx, calm.tenant, calm.capability, ctx.ids.action())),
    );
    calmRoutes.catch(() => {});
    await withBurstLine(ctx.tokens, BURST, [dispatch], async (line) => {
      for (let round = 1; round <= BURST_ROUNDS; round++) {
        const replies = await line.fire((via) =>
          Array.from({ length: BURST }, () => via(dispatch).call('resolveRoute', { body: fresh() })),
        );
        for (const r of replies.filter((x) => x.status !== 200))
          expectBurstRefusal(
            r,
            { scope: 'tenant', instanceId: noisy.instance.id },
            `a resolve of the noisy tenant's burst ${round} refused`,
          );
        const admitted = replies.filter((r) => r.status === 200).map((r) => expectOk(r, 'a resolve of the burst'));
        expectAtMost(admitted.length, LIMIT, `resolves of the noisy tenant's burst ${round} admitted`);
        expectEqual(
          await counters(),
          { tenant: admitted.length, instance: admitted.length },
          `tenant and instance counters after burst ${round}: refusals reserved nothing`,
        );
        await Promise.all(admitted.map((v) => ctx.fx.settle(v, 'cancelled')));
      }
    });
    const calmViews = await calmRoutes;
    // Contention may refuse below the limit; one at a time, exactly the limit fits and the next is refused for the tenant.
    await fillSequentially(ctx, dispatch, LIMIT, fresh, 'a resolve below the tenant limit');
    expectError(
      await resolveWithRetries(ctx, dispatch, fresh()),
      'CAPACITY_EXCEEDED',
      { scope: 'tenant' },
      'a resolve at the tenant limit',
    );
    expectEqual(
      await counters(),
      { tenant: LIMIT, instance: LIMIT },
      'tenant and instance counters at the limit: the refusal reserved nothing',
    );
    expectEqual(calmViews.length, LIMIT, 'routes of the calm tenant');
    expectEqual(await ctx.fx.counter('tenant', calm.tenant), LIMIT, 'tenant counter of the calm tenant');
  },
});
