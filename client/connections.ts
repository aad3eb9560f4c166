// The connections a transport sends over. A kept-alive connection that a
// target closes while idle can be handed a request at the very moment the
// close is on its way (a race no client can rule out, more so on a busy
// machine whose timers fire late): the request then fails before any byte
// of its answer.
// - Requests that may be repeated go over a pool whose sockets mark the
//   errors they raise with how much they had read before them, which tells
//   a reused connection (the race) from a new one (a target that dropped
//   the request); the transport sends such a request again.
// - Requests that may not be repeated (a resolve, a settlement) each go on a
//   new connection of their own: a connection that carried nothing before
//   cannot be one the target is closing as idle, however late this
//   machine's timers and reads run, and a reused one can, when the target
//   itself stalls past its keep-alive time before it reads the request.
//   A connection costs a loopback or LAN handshake; an indeterminate
//   settlement costs the verdict.
import type { Socket } from 'node:net';
import { Agent, buildConnector, Client, Pool } from 'undici';

/** A target's own keep-alive hint shortens it (undici keeps two seconds less than the hint). */
const IDLE_KEPT_MS = 10_000;
/** A burst's pre-opened connection carries a request that may not be repeated only this soon after its warm-up left. */
export const UNREPEATABLE_REUSE_MS = 1000;
const READ_BEFORE = Symbol('bytes the socket had read before this error');

const connect = buildConnector({});

/** Opens connections whose socket errors say how much the socket had read before them. */
const markingConnect: buildConnector.connector = (options, callback) =>
  connect(options, (err, socket) => {
    // Before undici's own listener, so the mark is on the error undici fails the request with.
    (socket as Socket | null)?.prependListener('error', (error: Error) => {
      (error as unknown as Record<symbol, number>)[READ_BEFORE] ??= (socket as Socket).bytesRead;
    });
    // undici's connector calls back with either an error or a socket.
    if (err) callback(err, null);
    else callback(null, socket!);
  });

/** A pool of kept-alive connections whose socket errors say whether the socket had been used. */
export function connectionPool(connections?: number): Agent {
  return new Agent({ keepAliveTimeout: IDLE_KEPT_MS, ...(connections ? { connections } : {}), connect: markingConnect });
}

/**
 * A burst's connections, one per request, marked the same way: a warm-up on
 * one the target closed as idle between two bursts is sent again, and the
 * burst's request then opens a new one.
 */
export function burstConnections(origin: string, width: number): Pool {
  return new Pool(origin, { connections: width, pipelining: 1, connect: markingConnect });
}

/** A connection of its own for one request; the caller destroys it. */
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
