import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'wire/capacity-exceeded-carries-retry-guidance',
  clause: 'error-capacity-guidance',
  category: 'wire',
  description: 'CAPACITY_EXCEEDED has a positive retry_after_ms, details.scope and Retry-After in whole seconds',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 1 } });
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    const error = expectError(reply, 'CAPACITY_EXCEEDED', { scope: 'tenant' });
    const retryAfterMs = error.retry_after_ms ?? 0;
    expectAtLeast(retryAfterMs, 1, 'retry_after_ms', reply.exchange);
    expectEqual(reply.headers['retry-after'], String(Math.ceil(retryAfterMs / 1000)), 'Retry-After header', reply.exchange);
  },
});
