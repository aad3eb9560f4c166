// The connections a transport sends over. A kept-alive connection that a
// target closes while idle can be handed a request at the very moment the
// close is on its way (a race no client can rule out, more so on a busy
// machine whose timers fire late): the request then fails before any byte
// of its answer.
// - Requests that may be repeated go over a pool whose sockets mark the
//   errors they raise with how much they had read before them, which tells
//   a reused connection (the race) from a new one (a target that dropped
//   the request); the transport sends such a request again.
// - Requests that may not be repeated go over connections reused only within
//   a second of their previous request, measured from when it was sent: no
//   target that keeps an idle connection longer ([wire-connection-timeouts])
//   can be closing it, however late this machine's timers and reads run.
import type { Socket } from 'node:net';
import { Agent, buildConnector, Client, type Dispatcher } from 'undici';

/** A target's own keep-alive hint shortens it (undici keeps two seconds less than the hint). */
const IDLE_KEPT_MS = 10_000;
/** A connection carries a request that may not be repeated only this soon after its previous request left. */
export const UNREPEATABLE_REUSE_MS = 1000;
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

/** A connection of its own for one request; the caller destroys it. */
export function freshConnection(origin: string): Client {
  return new Client(origin, { pipelining: 1 });
}

interface Recent {
  client: Client;
  sentAt: number;
}

/** Connections for requests that may not be repeated: each reused only while its previous request left less than a second ago. */
export class RecentConnections {
  private readonly idle: Recent[] = [];
  private readonly busy = new Set<Client>();

  constructor(private readonly origin: string) {}

  /** Runs `send` over a connection that cannot be closing under it; a connection a request failed on is not used again. */
  async use<T>(send: (dispatcher: Dispatcher) => Promise<T>): Promise<T> {
    const now = performance.now();
    let recent = this.idle.pop();
    while (recent && now - recent.sentAt >= UNREPEATABLE_REUSE_MS) {
      void recent.client.destroy();
      recent = this.idle.pop();
    }
    const taken = { client: recent?.client ?? freshConnection(this.origin), sentAt: now };
    this.busy.add(taken.client);
    try {
      const value = await send(taken.client);
      this.idle.push(taken);
      return value;
    } catch (err) {
      void taken.client.destroy();
      throw err;
    } finally {
      this.busy.delete(taken.client);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.idle.splice(0).map((r) => r.client), ...this.busy].map((c) => c.destroy()));
  }
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
