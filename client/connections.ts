// The connections a transport sends over. A pooled connection that a target
// closed while idle can be handed a request at the very moment the close is
// on its way (a keep-alive race no client can rule out, more so on a busy
// machine whose timers fire late): the request then fails before any byte
// of its answer. To tell that race from a target that dropped a request it
// had read, every pooled socket marks the errors it raises with how much it
// had read before them: a socket that had carried an answer was reused.
import type { Socket } from 'node:net';
import { Agent, buildConnector, Client } from 'undici';

/** Under a target's own keep-alive hint undici keeps less; without one, less than the common 5 s server idle timeout. */
const IDLE_KEPT_MS = 4000;
const READ_BEFORE = Symbol('bytes the socket had read before this error');

const connect = buildConnector({});

/** A pool of kept-alive connections whose socket errors say whether the socket had been used. */
export function connectionPool(connections?: number): Agent {
  return new Agent({
    keepAliveTimeout: IDLE_KEPT_MS,
    ...(connections ? { connections } : {}),
    connect: (options, callback) =>
      connect(options, (err, socket) => {
        // Before undici's own listener, so the mark is on the error undici fails the request with.
        (socket as Socket | null)?.prependListener('error', (error: Error) => {
          (error as unknown as Record<symbol, number>)[READ_BEFORE] ??= (socket as Socket).bytesRead;
        });
        // undici's connector calls back with either an error or a socket.
        if (err) callback(err, null);
        else callback(null, socket!);
      }),
  });
}

/** A connection of its own for one request, closed by the target after the answer; the caller destroys it. */
export function freshConnection(origin: string): Client {
  return new Client(origin, { pipelining: 1 });
}

const CLOSED_UNDER_US = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * Whether a request that got no answer head failed the way a kept-alive
 * connection the target was closing fails: closed or reset under it, on a
 * socket that had already carried an answer.
 */
export function failedOnReusedConnection(err: unknown): boolean {
  const e = err as { code?: string; socket?: { bytesRead?: number } } & Record<symbol, number | undefined>;
  if (typeof e !== 'object' || e === null || !CLOSED_UNDER_US.has(e.code ?? '')) return false;
  const readBefore = e.socket?.bytesRead ?? e[READ_BEFORE];
  return readBefore !== undefined && readBefore > 0;
}
