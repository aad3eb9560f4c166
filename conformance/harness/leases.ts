// Lease maintenance on a server others share. Maintenance is global: a call
// may take anyone's stale replicas offline, and other clients may call it
// too. What holds regardless, and is checked on every call a case makes: a
// call changes at most `limit` replicas, and once calls return fewer than
// `limit`, every replica that was stale before them is offline. One short
// call is not enough to judge: a concurrent maintenance call (another case,
// another client) may hold the case's stale replica, which a registry may
// skip rather than wait for, and it goes offline when that call commits. So
// the judgement waits for SHORT_CALLS_TO_JUDGE short calls in a row, a pause
// apart, that all leave it stale. For the same reason, replicas seen offline
// out of lease order are read again before that is judged.
import type { CaseContext } from './context.ts';
import { expectOk, fail } from './expect.ts';
import { HarnessError } from './failure.ts';

const SHORT_CALLS_TO_JUDGE = 4;
const PAUSE_MS = 100;

/**
 * Short maintenance calls in a row that left one of the case's stale
 * replicas live. `short` counts one more and fails with `failure(inARow)` on
 * the SHORT_CALLS_TO_JUDGE-th, else pauses longer each time so a concurrent
 * call holding the replica can commit; `full` starts the count again.
 */
export class ShortCalls {
  #inARow = 0;
  constructor(private readonly ctx: Pick<CaseContext, 'sleep'>) {}

  full(): void {
    this.#inARow = 0;
  }

  async short(failure: (inARow: number) => never): Promise<void> {
    if (++this.#inARow >= SHORT_CALLS_TO_JUDGE) failure(this.#inARow);
    await this.ctx.sleep(PAUSE_MS * this.#inARow);
  }
}

/**
 * Whether `holds` is still true after SHORT_CALLS_TO_JUDGE reads, a pause
 * apart (longer each time), with no maintenance call between them: a state
 * a concurrent call leaves for a moment (it holds a replica the case's own
 * call skipped) is gone once that call commits; a registry's own doing stays.
 */
export async function persists(ctx: Pick<CaseContext, 'sleep'>, holds: () => Promise<boolean>): Promise<boolean> {
  for (let read = 1; read < SHORT_CALLS_TO_JUDGE; read++) {
    await ctx.sleep(PAUSE_MS * read);
    if (!(await holds())) return false;
  }
  return true;
}

export async function expireUntilOffline(
  ctx: CaseContext,
  replicaIds: string[],
  limit = Math.min(100, ctx.limits.max_expiry_batch),
  maxCalls = 500,
): Promise<number> {
  const short = new ShortCalls(ctx);
  for (let calls = 0; calls < maxCalls; calls++) {
    const reply = await ctx.operator.call('expireLeases', { body: { limit } });
    const { expired } = expectOk(reply, 'lease maintenance');
    if (expired > limit)
      fail(`one lease maintenance call with limit ${limit} changed ${expired} replicas`, {
        exchange: reply.exchange,
        clause: 'lease-expiry-bounded',
      });
    if (expired < limit) {
      const states = await Promise.all(replicaIds.map((id) => ctx.fx.replicaState(id)));
      const left = states.filter((s) => s.status !== 'offline').map((s) => s.id);
      if (left.length === 0) return calls + 1;
      await short.short((inARow) =>
        fail(
          `lease maintenance returned fewer than ${limit} ${inARow} times in a row (last ${expired}), yet stale replicas are still ${left.join(', ')} not offline`,
          { exchange: reply.exchange, clause: 'lease-expiry-bounded' },
        ),
      );
    } else {
      short.full();
    }
  }
  throw new HarnessError(
    `lease maintenance still returned a full batch after ${maxCalls} calls; too many stale replicas on the target to finish`,
  );
}
