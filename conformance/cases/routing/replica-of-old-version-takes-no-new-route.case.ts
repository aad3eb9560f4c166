import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/replica-of-old-version-takes-no-new-route',
  clause: 'route-eligibility',
  category: 'routing',
  description: "after a rollout, new actions go only to replicas at the instance's current version",
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 50 });
    const next = await ctx.fx.version(fleet.type.id, fleet.capabilities);
    expectOk(
      await ctx.admin.call('putInstance', {
        params: { instance_id: fleet.instance.id },
        body: { ...fleet.instance, version_id: next.id, config_revision: 2 },
      }),
    );
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'only the old version has a ready replica');
    const current = await ctx.fx.replica(fleet.instance.id, next.id);
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectEqual(
      [view.assignment.replica_id, view.assignment.version_id],
      [current.id, next.id],
      'the route after a current replica appears',
    );
  },
});
