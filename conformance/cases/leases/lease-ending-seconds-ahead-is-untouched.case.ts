import { defineCase } from '../../harness/define-case.ts';
import { expectOk, fail } from '../../harness/expect.ts';
import { HarnessError } from '../../harness/failure.ts';
import { expireUntilOffline } from '../../harness/leases.ts';

/** How far ahead the live lease ends: room for one ordinary maintenance call and a read, and still near the edge. */
const AHEAD_MS = 3000;
/** How far behind the stale lease ended. */
const BEHIND_MS = 1000;

export default defineCase({
  id: 'leases/lease-ending-seconds-ahead-is-untouched',
  clause: 'lease-expiry-bounded',
  category: 'leases',
  description: 'maintenance leaves a lease ending 3 s ahead and takes one that ended 1 s ago',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 0 });
    // Both placed on the target's clock, widened by its uncertainty: lease ≤ now is stale, anything later is not.
    const widen = ctx.clock.uncertaintyMs;
    const stale = await ctx.fx.replica(fleet.instance.id, fleet.version.id, { lease_expires_at: ctx.clock.at(-BEHIND_MS - widen) });
    const liveUntil = ctx.clock.now() + AHEAD_MS + widen;
    const live = await ctx.fx.replica(fleet.instance.id, fleet.version.id, {
      lease_expires_at: new Date(liveUntil).toISOString(),
    });
    expectOk(await ctx.operator.call('expireLeases', { body: { limit: ctx.limits.max_expiry_batch } }), 'lease maintenance');
    const state = await ctx.fx.replicaState(live.id);
    // Any maintenance call, the case's or another client's, may take the replica once its lease has passed.
    const readBy = ctx.clock.now() + ctx.clock.uncertaintyMs;
    if (state.status === 'offline') {
      if (readBy < liveUntil) fail(`lease maintenance took offline a replica whose lease ends at ${live.lease_expires_at}, still ahead`);
      throw new HarnessError(
        `the live replica was read offline only after its lease may have ended (${live.lease_expires_at}); too slow to judge`,
      );
    }
    await expireUntilOffline(ctx, [stale.id]);
  },
});
