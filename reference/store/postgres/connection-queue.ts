// The bounded queue for a PostgreSQL connection ([failure-overload]): its
// size and wait, and the retry guidance of the overload answer. Apart from
// database.ts, so the command line can show the defaults without loading pg.

/** Requests waiting for one of a pool's connections ([failure-overload]). */
export interface ConnectionQueue {
  /** How many requests may wait at once; the next one is refused at once. */
  size: number;
  /** How long a request waits for a connection (and a new connection may take to open) before it is refused. */
  waitMs: number;
}

/**
 * Room for a burst of 500 concurrent resolves of one tenant, which its
 * admission counter serialises, on a busy 2-core machine: the queue holds
 * them all, and the last of them is served well inside the wait.
 */
export const DEFAULT_CONNECTION_QUEUE: ConnectionQueue = { size: 2_000, waitMs: 30_000 };

/** What an overloaded pool asks a client to wait before retrying. */
export const OVERLOAD_RETRY_AFTER_MS = 1_000;
