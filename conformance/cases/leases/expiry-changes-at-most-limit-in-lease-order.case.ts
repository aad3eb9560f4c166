import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectOk, fail } from '../../harness/expect.ts';
import { HarnessError } from '../../harness/failure.ts';
import { persists, ShortCalls } from '../../harness/leases.ts';

export default defineCase({
  id: 'leases/expiry-changes-at-most-limit-in-lease-order',
  clause: 'lease-expiry-bounded',
  category: 'leases',
  flags: ['serial'],
  description: 'each lease maintenance call changes at most limit replicas, oldest lease first, then replica id',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 0 });
    // Expected order: lease first, then replica id (byte order) among equal leases. The ids run the other way
    // elsewhere, so an order by id alone is out of lease order.
    const leases = [-40, -30, -30, -20].map((m) => ctx.clock.at(m * MINUTE));
    const ids = ['r3', 'r1', 'r2', 'r0'];
    const replicas = await Promise.all(
      leases.map((lease, i) =>
        ctx.fx.replica(fleet.instance.id, fleet.version.id, { id: ctx.ids.replica(ids[i]!), lease_expires_at: lease }),
      ),
    );
    // A call that returns 0 while one of these is stale is judged as harness/leases.ts says: a
    // concurrent call may hold that replica and take it offline when it commits.
    const short = new ShortCalls(ctx);
    const offlineNow = () => Promise.all(replicas.map(async (r) => (await ctx.fx.replicaState(r.id)).status === 'offline'));
    for (let call = 0; call < 1000; call++) {
      const reply = await ctx.operator.call('expireLeases', { body: { limit: 1 } });
      const { expired } = expectOk(reply);
      if (expired > 1) fail(`a call with limit 1 changed ${expired} replicas`, { exchange: reply.exchange });
      let offline = await offlineNow();
      // Whoever else is calling, the offline ones among these must be a prefix of the order once no call holds
      // one: a concurrent call may hold an earlier one that this call skipped, and commits it a moment later.
      const outOfOrder = (o: boolean[]) => o.indexOf(false) !== -1 && o.slice(o.indexOf(false)).includes(true);
      if (outOfOrder(offline) && (await persists(ctx, async () => outOfOrder((offline = await offlineNow()))))) {
        fail(
          `replicas stayed offline out of lease order: ${offline.map((o, i) => `${replicas[i]!.id}=${o ? 'offline' : 'not offline'}`).join(', ')}`,
          { exchange: reply.exchange },
        );
      }
      const firstOnline = offline.indexOf(false);
      if (firstOnline === -1) return;
      if (expired === 0) {
        const stale = replicas[firstOnline]!.id;
        await short.short((inARow) =>
          fail(`${inARow} calls in a row returned 0 while ${stale} was stale and not offline`, { exchange: reply.exchange }),
        );
      } else {
        short.full();
      }
    }
    // Every call changed one replica and kept the order, yet others' stale replicas came first
    // each time: a busy shared registry, not a broken one.
    throw new HarnessError(
      "1000 calls with limit 1 each took another stale replica offline before all of this case's; the target holds too many stale replicas of others to finish",
    );
  },
});
