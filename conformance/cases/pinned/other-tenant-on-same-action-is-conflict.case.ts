import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/other-tenant-on-same-action-is-conflict',
  clause: 'pinned-conflict',
  category: 'pinned',
  description: 'resolving an action id another tenant already routed is 409 and leaves that route alone',
  async run(ctx) {
    const owner = await ctx.fx.fleet();
    const other = await ctx.fx.fleet({ capabilities: owner.capabilities });
    const view = await ctx.fx.resolve(owner.tenant, owner.capability, ctx.ids.action());
    const body = { action_id: view.assignment.action_id, capability_id: owner.capability };
    expectError(
      await ctx.dispatch(other.tenant).call('resolveRoute', { body }),
      'CONFLICT',
      undefined,
      'the same action from another tenant with a valid binding',
    );
    expectIdentical(await ctx.fx.route(owner.tenant, view.assignment.action_id), view, "the owner's route");
  },
});
