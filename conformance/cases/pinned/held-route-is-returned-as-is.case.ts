import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/held-route-is-returned-as-is',
  clause: 'pinned-reserved',
  category: 'pinned',
  description: 'resolving an action that still holds its reservation returns it and reserves nothing more',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 5, max_tenant_retry_in_flight: 5 } });
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    for (let i = 0; i < 3; i++) {
      expectIdentical(
        await ctx.fx.resolve(fleet.tenant, fleet.capability, first.assignment.action_id),
        first,
        `resolve ${i + 2} of the held action`,
      );
    }
    expectEqual(await ctx.fx.active(first.assignment.replica_id), 1, 'replica active assignments');
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 1, 'tenant counter');
    expectEqual(await ctx.fx.counter('tenant_retry', fleet.tenant), 0, 'retry counter');
  },
});
