import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/no-eligible-replica-names-first-binding-instance',
  clause: 'route-replica-unavailable',
  category: 'routing',
  description: 'when eligible bindings have no eligible replica, REPLICA_UNAVAILABLE names the first by priority',
  async run(ctx) {
    const later = await ctx.fx.fleet({ priority: 5, replicas: [{ status: 'offline' }] });
    const first = await ctx.fx.fleet({
      tenant: later.tenant,
      capabilities: later.capabilities,
      priority: 1,
      replicas: [{ status: 'draining' }],
    });
    const reply = await ctx
      .dispatch(later.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: later.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: first.instance.id });
  },
});
