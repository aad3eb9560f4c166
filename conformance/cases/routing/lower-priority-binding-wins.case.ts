import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/lower-priority-binding-wins',
  clause: 'route-order',
  category: 'routing',
  description: 'the binding with the lower priority number takes new actions, even against region and load',
  async run(ctx) {
    const preferred = await ctx.fx.fleet({ priority: 1, capacity: 50, topology: { region: 'us', zone: 'us-1' } });
    const fallback = await ctx.fx.fleet({
      tenant: preferred.tenant,
      capabilities: preferred.capabilities,
      priority: 7,
      capacity: 50,
      topology: { region: 'eu', zone: 'eu-1' },
    });
    for (let i = 0; i < 3; i++) {
      const view = await ctx.fx.resolve(preferred.tenant, preferred.capability, ctx.ids.action(), { region: 'eu', zone: 'eu-1' });
      expectEqual(
        view.assignment.instance_id,
        preferred.instance.id,
        `instance of action ${i + 1} (priority 1 in us against priority 7 in eu)`,
      );
    }
    expectEqual(await ctx.fx.active(fallback.replicas[0]!.id), 0, 'the fallback replica took nothing');
  },
});
