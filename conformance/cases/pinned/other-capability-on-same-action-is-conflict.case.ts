import { defineCase } from '../../harness/define-case.ts';
import { spreadCatalog } from '../../harness/sizes.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/other-capability-on-same-action-is-conflict',
  clause: 'pinned-conflict',
  category: 'pinned',
  description: 'resolving an existing action id with another capability is 409, held or settled',
  async run(ctx) {
    // The tenant is bound to both capabilities, wherever the declared limits let them live.
    const { fleets } = await spreadCatalog(ctx, [ctx.fx.capability(), ctx.fx.capability()]);
    const fleet = fleets[0]!;
    const other = fleets.flatMap((f) => f.capabilities).find((c) => c.id !== fleet.capability)!;
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const body = { action_id: view.assignment.action_id, capability_id: other.id };
    expectError(await ctx.dispatch(fleet.tenant).call('resolveRoute', { body }), 'CONFLICT', undefined, 'while held');
    await ctx.fx.settle(view);
    expectError(await ctx.dispatch(fleet.tenant).call('resolveRoute', { body }), 'CONFLICT', undefined, 'after settlement');
    expectIdentical((await ctx.fx.route(fleet.tenant, view.assignment.action_id)).assignment, view.assignment, 'the stored assignment');
  },
});
