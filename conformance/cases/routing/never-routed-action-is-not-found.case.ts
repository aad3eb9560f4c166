import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/never-routed-action-is-not-found',
  clause: 'assignment-read',
  category: 'routing',
  description: 'reading the route of an action never routed is 404, also after a refused resolve',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 1 });
    const dispatch = ctx.dispatch(fleet.tenant);
    expectError(
      await dispatch.call('getRoute', { params: { action_id: ctx.ids.action() } }),
      'NOT_FOUND',
      undefined,
      'an action id never used',
    );
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const refused = ctx.ids.action();
    expectError(
      await dispatch.call('resolveRoute', { body: { action_id: refused, capability_id: fleet.capability } }),
      'REPLICA_UNAVAILABLE',
      undefined,
      'a resolve with no capacity left',
    );
    expectError(await dispatch.call('getRoute', { params: { action_id: refused } }), 'NOT_FOUND', undefined, 'the refused action');
  },
});
