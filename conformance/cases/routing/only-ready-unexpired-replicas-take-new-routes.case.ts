import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/only-ready-unexpired-replicas-take-new-routes',
  clause: 'route-eligibility',
  category: 'routing',
  description: 'draining, offline and lease-expired replicas take no new action; the one ready replica takes all',
  async run(ctx) {
    const expired = ctx.clock.at(-10 * MINUTE);
    const fleet = await ctx.fx.fleet({
      replicas: [
        { status: 'draining' },
        { status: 'offline' },
        { lease_expires_at: expired },
        { status: 'offline', lease_expires_at: expired },
        { capacity: 2 },
      ],
    });
    const ready = fleet.replicas[4]!.id;
    for (let i = 0; i < 2; i++) {
      const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
      expectEqual(view.assignment.replica_id, ready, `replica of new action ${i + 1}`);
    }
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'a third action once the ready replica is full');
    for (const r of fleet.replicas.slice(0, 4))
      expectEqual(await ctx.fx.active(r.id), 0, `active assignments of ineligible ${r.status} replica`);
  },
});
