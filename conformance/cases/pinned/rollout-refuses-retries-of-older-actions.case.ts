import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/rollout-refuses-retries-of-older-actions',
  clause: 'pinned-replica-conditions',
  category: 'pinned',
  description: 'after a rollout, a retry of an older action is REPLICA_UNAVAILABLE and never a new route',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10 });
    const old = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(old);
    const next = await ctx.fx.version(fleet.type.id, fleet.capabilities);
    expectOk(
      await ctx.admin.call('putInstance', {
        params: { instance_id: fleet.instance.id },
        body: { ...fleet.instance, version_id: next.id, config_revision: 2 },
      }),
    );
    const current = await ctx.fx.replica(fleet.instance.id, next.id);
    await ctx.fx.health(fleet.replicas[0]!.id, { status: 'draining' });
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: old.assignment.action_id, capability_id: fleet.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id });
    expectIdentical(
      await ctx.fx.route(fleet.tenant, old.assignment.action_id),
      { ...old, reserved: false, last_settlement: 'completed' },
      'the older route',
    );
    expectEqual(await ctx.fx.active(current.id), 0, 'the current replica took nothing for the older action');
  },
});
