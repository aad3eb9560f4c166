import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/counters-are-shared-across-policies',
  clause: 'admission-counters',
  category: 'admission',
  description: 'policies naming one tenant share one tenant counter, each checking its own pinned limit',
  async run(ctx) {
    const roomy = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 3 } });
    const tight = await ctx.fx.fleet({ tenant: roomy.tenant, policy: { max_tenant_in_flight: 2 } });
    await ctx.fx.resolve(roomy.tenant, tight.capability, ctx.ids.action());
    await ctx.fx.resolve(roomy.tenant, roomy.capability, ctx.ids.action());
    expectEqual(await ctx.fx.counter('tenant', roomy.tenant), 2, 'the tenant counter after a route under each policy');
    const reply = await ctx
      .dispatch(roomy.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: tight.capability } });
    expectError(reply, 'CAPACITY_EXCEEDED', { scope: 'tenant' }, 'a route under the tight policy sees the shared counter at 2');
    await ctx.fx.resolve(roomy.tenant, roomy.capability, ctx.ids.action());
    expectEqual(await ctx.fx.counter('tenant', roomy.tenant), 3, 'the roomy policy still admits its third');
  },
});
