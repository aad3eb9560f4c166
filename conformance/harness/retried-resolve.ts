// A resolve sent on its own, outside any burst, retried while the target
// answers REPLICA_UNAVAILABLE ([route-contention]): what setup and the cases
// use when a busy registry may refuse a lock it could otherwise grant.
import type { ErrorBody } from '../../contract/errors.ts';
import type { ResolveRequest } from '../../contract/records.ts';
import type { RegistryClient, Reply } from './client.ts';

/**
 * Attempts of one resolve outside a burst of the case. Nothing else of the
 * case is in flight then, but the target may be busy with other clients, so
 * REPLICA_UNAVAILABLE is tried again a few times, a growing pause apart.
 */
const CONTENTION_ATTEMPTS = 5;
const PAUSE_MS = 50;

export const errorCodeOf = (reply: Reply<'resolveRoute'>): string | undefined => (reply.json as ErrorBody | undefined)?.error?.code;

/**
 * A resolve sent on its own: REPLICA_UNAVAILABLE is retried up to
 * CONTENTION_ATTEMPTS times in all; the last reply is returned, whatever it is.
 */
export async function resolveWithRetries(
  ctx: { sleep(ms: number): Promise<void> },
  dispatch: RegistryClient,
  body: ResolveRequest,
): Promise<Reply<'resolveRoute'>> {
  for (let attempt = 1; ; attempt++) {
    const reply = await dispatch.call('resolveRoute', { body });
    if (attempt >= CONTENTION_ATTEMPTS || errorCodeOf(reply) !== 'REPLICA_UNAVAILABLE') return reply;
    await ctx.sleep(PAUSE_MS * attempt);
  }
}
