import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/admitted-version-refuses-retry',
  clause: 'pinned-replica-conditions',
  category: 'pinned',
  description: 'a retry whose pinned version was set back to admitted is REPLICA_UNAVAILABLE naming its instance',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10 });
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(view);
    const retry = () =>
      ctx.dispatch(fleet.tenant).call('resolveRoute', { body: { action_id: view.assignment.action_id, capability_id: fleet.capability } });
    const version = { version_id: fleet.version.id };

    expectOk(
      await ctx.admin.call('setVersionStatus', { params: version, body: { status: 'admitted' } }),
      'setting the version to admitted',
    );
    expectError(
      await retry(),
      'REPLICA_UNAVAILABLE',
      { instance_id: fleet.instance.id },
      'a retry while the pinned version is admitted, not active',
    );
    expectEqual(await ctx.fx.active(view.assignment.replica_id), 0, 'replica units after the refused retry');
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 0, 'tenant counter after the refused retry');

    // Active again, the same retry goes through: the status alone refused it.
    expectOk(
      await ctx.admin.call('setVersionStatus', { params: version, body: { status: 'active' } }),
      'setting the version back to active',
    );
    expectIdentical(
      expectOk(await retry(), 'a retry once the version is active again').assignment,
      view.assignment,
      'the retried assignment',
    );
  },
});
