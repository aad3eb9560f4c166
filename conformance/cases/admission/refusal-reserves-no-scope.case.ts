import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/refusal-reserves-no-scope',
  clause: 'admission-all-or-nothing',
  category: 'admission',
  description: 'when one scope is at its limit, no other counter moves',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      capacity: 10,
      policy: { max_tenant_in_flight: 10, max_connector_type_in_flight: 10, max_instance_in_flight: 1, max_binding_in_flight: 10 },
    });
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const counters = async () => [
      await ctx.fx.counter('tenant', fleet.tenant),
      await ctx.fx.counter('connector_type', fleet.type.id),
      await ctx.fx.counter('instance', fleet.instance.id),
    ];
    expectEqual(await counters(), [1, 1, 1], 'tenant, connector type and instance counters with one route');
    for (let i = 0; i < 3; i++) {
      const reply = await ctx
        .dispatch(fleet.tenant)
        .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
      expectError(reply, 'CAPACITY_EXCEEDED', { scope: 'instance' });
    }
    expectEqual(await counters(), [1, 1, 1], 'counters after three refusals at the instance scope');
  },
});
