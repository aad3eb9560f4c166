// Connections: a control pool (catalog writes) and a data pool (everything
// else), transactions, and the one place where a database failure becomes
// STORAGE_UNAVAILABLE. Requests beyond the pool's connections wait in a
// bounded queue; a full queue or a wait that runs out is the overload answer
// of [failure-overload]. Nothing here decides a registry rule.
import pg from 'pg';
import { RegistryError, storageUnavailable } from '../../../contract/registry-error.ts';
import { DEFAULT_CONNECTION_QUEUE, OVERLOAD_RETRY_AFTER_MS, type ConnectionQueue } from './connection-queue.ts';
import type { Statement } from './sql.ts';

export type Db = pg.PoolClient;

export interface PoolSpec {
  url: string;
  max: number;
  /** The queue for one of its connections ([failure-overload]); DEFAULT_CONNECTION_QUEUE for what is not given. */
  queue?: Partial<ConnectionQueue>;
  /** Role to assume on every connection (the owner URL case); none when the URL's user is already the role. */
  role?: string;
  statementTimeoutMs: number;
  applicationName: string;
  /** The schemas unqualified names are looked up in, when not the server's default. */
  searchPath?: readonly string[];
}

// BIGINT arrives as a string by default; every BIGINT of this schema is a
// revision, count, limit or millisecond time within 2^53 (spec [wire-integers]).
const INT8_OID = 20;
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

const queues = new WeakMap<pg.Pool, ConnectionQueue>();

export function createPool(spec: PoolSpec): pg.Pool {
  const queue = { ...DEFAULT_CONNECTION_QUEUE, ...spec.queue };
  if (!(Number.isInteger(queue.size) && queue.size >= 0) || !(Number.isInteger(queue.waitMs) && queue.waitMs > 0)) {
    throw new Error(`connection queue needs a size >= 0 and a wait > 0 ms, not ${JSON.stringify(queue)}`);
  }
  const options = [
    `-c statement_timeout=${spec.statementTimeoutMs}`,
    `-c idle_in_transaction_session_timeout=${spec.statementTimeoutMs * 2}`,
    // The registry's working set lives in memory, where an index probe costs
    // about what a sequential page does. At the default (4) the planner
    // hashes whole tables for a tenant's 200 bindings: the tenant catalog
    // view read every instance and version capability, 25 ms instead of 3.
    '-c random_page_cost=1.1',
  ];
  if (spec.role) options.push(`-c role=${spec.role}`);
  if (spec.searchPath) options.push(`-c search_path=${spec.searchPath.join(',')}`);
  const pool = new pg.Pool({
    connectionString: spec.url,
    max: spec.max,
    connectionTimeoutMillis: queue.waitMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: spec.applicationName,
    options: options.join(' '),
    types: typeParsers,
  });
  // An idle connection that dies (server restart, terminated backend) is
  // reported here and dropped by the pool; the next checkout opens a new one.
  pool.on('error', () => {});
  // A checked-out connection that dies between two statements reports it on
  // the client; the next statement then fails and becomes STORAGE_UNAVAILABLE.
  pool.on('connect', (client) => client.on('error', () => {}));
  queues.set(pool, queue);
  return pool;
}

/** The queue bound a pool was created with. */
export function queueOf(pool: pg.Pool): ConnectionQueue {
  return queues.get(pool) ?? DEFAULT_CONNECTION_QUEUE;
}

/** pg-pool's words when a request's wait for a connection ran out. */
const QUEUE_WAIT_EXPIRED = 'timeout exceeded when trying to connect';

/** Overload answers, which share STORAGE_UNAVAILABLE with failures whose outcome is unknown but are not one. */
const refusedUnsent = new WeakSet<RegistryError>();

/** The overload answer of [failure-overload]: nothing was done; retry after a while. */
export function overloaded(why: string, cause?: unknown): RegistryError {
  const err = new RegistryError('STORAGE_UNAVAILABLE', `registry storage is overloaded: ${why}; nothing was done`, {
    retryAfterMs: OVERLOAD_RETRY_AFTER_MS,
    cause,
  });
  refusedUnsent.add(err);
  return err;
}

/** True for an overload answer: the request was refused before any statement was sent, so nothing can have committed. */
export function wasNeverSent(err: unknown): boolean {
  return RegistryError.is(err) && refusedUnsent.has(err);
}

/** Refuses a request at once when the queue for a connection is full. */
function admit(pool: pg.Pool): void {
  const queue = queues.get(pool);
  // Only a request that would wait counts against the queue.
  if (queue && pool.waitingCount >= queue.size && pool.idleCount === 0 && pool.totalCount >= pool.options.max) {
    throw overloaded(`${pool.waitingCount} requests already wait for a connection`);
  }
}

/** Any failure that is not already a registry answer is a storage failure ([failure-storage]). */
export function asRegistryError(err: unknown): RegistryError {
  if (RegistryError.is(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (message === QUEUE_WAIT_EXPIRED) return overloaded('no connection became free in time', err);
  return storageUnavailable(`registry storage failed: ${message}`, err);
}

export async function run<R extends pg.QueryResultRow = pg.QueryResultRow>(
  db: Db | pg.Pool,
  statement: Statement,
  values: unknown[] = [],
): Promise<R[]> {
  const result = await db.query<R>({ name: statement.name, text: statement.text, values });
  return result.rows;
}

async function checkout(pool: pg.Pool): Promise<Db> {
  admit(pool);
  try {
    return await pool.connect();
  } catch (err) {
    throw asRegistryError(err);
  }
}

/**
 * Runs `body` in one transaction on one connection. Any error rolls the
 * transaction back; a connection whose state is unknown afterwards (lost,
 * failed rollback) is destroyed rather than returned to the pool.
 */
export async function transaction<T>(pool: pg.Pool, body: (db: Db) => Promise<T>): Promise<T> {
  const db = await checkout(pool);
  try {
    await db.query('BEGIN');
    const result = await body(db);
    await db.query('COMMIT');
    db.release();
    return result;
  } catch (err) {
    let healthy = true;
    try {
      await db.query('ROLLBACK');
    } catch {
      healthy = false;
    }
    db.release(healthy ? undefined : true);
    throw asRegistryError(err);
  }
}

/** The reason a statement gave for refusing (fleetproof_refuse), if it did. */
function refusalOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'FP001' ? (err as Error).message : undefined;
}

/**
 * A single statement outside any explicit transaction, committed on its own.
 * A statement that refused (fleetproof_refuse) has taken no effect; its
 * reason becomes the registry error `refusal` gives for it.
 */
export async function read<R extends pg.QueryResultRow = pg.QueryResultRow>(
  pool: pg.Pool,
  statement: Statement,
  values: unknown[] = [],
  refusal?: (reason: string) => RegistryError,
): Promise<R[]> {
  admit(pool);
  try {
    return await run<R>(pool, statement, values);
  } catch (err) {
    const reason = refusalOf(err);
    throw reason !== undefined && refusal ? refusal(reason) : asRegistryError(err);
  }
}

/** The URL of the same server and credentials with another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${database}`;
  return u.toString();
}
