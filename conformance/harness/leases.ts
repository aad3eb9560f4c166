// Lease maintenance on a server others share. Maintenance is global: a call
// may take anyone's stale replicas offline, and other clients may call it
// too. What holds regardless, and is checked on every call a case makes: a
// call changes at most `limit` replicas, and once a call returns fewer than
// `limit`, every replica that was stale before it is offline.
import type { CaseContext } from './context.ts';
import { expectOk, fail } from './expect.ts';
import { HarnessError } from './failure.ts';

export async function expireUntilOffline(ctx: CaseContext, replicaIds: string[], limit = Math.min(100, ctx.limits.max_expiry_batch), maxCalls = 500): Promise<number> {
  for (let calls = 0; calls < maxCalls; calls++) {
    const reply = await ctx.operator.call('expireLeases', { body: { limit } });
    const { expired } = expectOk(reply, 'lease maintenance');
    if (expired > limit) fail(`one lease maintenance call with limit ${limit} changed ${expired} replicas`, { exchange: reply.exchange, clause: 'lease-expiry-bounded' });
    if (expired < limit) {
      const states = await Promise.all(replicaIds.map((id) => ctx.fx.replicaState(id)));
      const left = states.filter((s) => s.status !== 'offline').map((s) => s.id);
      if (left.length > 0) fail(`lease maintenance returned ${expired} < ${limit}, yet stale replicas are still ${left.join(', ')} not offline`, { exchange: reply.exchange, clause: 'lease-expiry-bounded' });
      return calls + 1;
    }
  }
  throw new HarnessError(`lease maintenance still returned a full batch after ${maxCalls} calls; too many stale replicas on the target to finish`);
}
