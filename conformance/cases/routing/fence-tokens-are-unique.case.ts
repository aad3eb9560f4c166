import { resolveForSetup } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/fence-tokens-are-unique',
  clause: 'assignment-fence-token',
  category: 'routing',
  flags: ['concurrent'],
  description: 'every assignment gets its own fence token, also when created in parallel',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 4, capacity: 100 });
    const other = await ctx.fx.fleet({ capacity: 100 });
    // Parallel on purpose; a resolve that meets contention ([route-contention]) is sent again.
    const views = await Promise.all([
      ...Array.from({ length: 40 }, () => resolveForSetup(ctx, fleet.tenant, fleet.capability, ctx.ids.action())),
      ...Array.from({ length: 20 }, () => resolveForSetup(ctx, other.tenant, other.capability, ctx.ids.action())),
    ]);
    const tokens = new Set(views.map((v) => v.assignment.fence_token));
    expectEqual(tokens.size, views.length, 'distinct fence tokens among 60 new assignments');
  },
});
