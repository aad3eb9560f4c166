import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/health-accepted-after-rollout',
  clause: 'records-replica-health',
  category: 'records',
  description: 'replicas of a version the instance has left still take health reports, so they can drain',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const next = await ctx.fx.version(fleet.type.id, fleet.capabilities);
    expectOk(
      await ctx.admin.call('putInstance', {
        params: { instance_id: fleet.instance.id },
        body: { ...fleet.instance, version_id: next.id, config_revision: 2 },
      }),
    );
    const drained = await ctx.fx.health(fleet.replicas[0]!.id, { status: 'draining' });
    expectEqual(drained.status, 'draining', 'the old replica drains');
    const offline = await ctx.fx.health(fleet.replicas[0]!.id, { status: 'offline' });
    expectEqual(offline.status, 'offline', 'and goes offline');
  },
});
