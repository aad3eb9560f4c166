// Connections: a control pool (catalog writes) and a data pool (everything
// else), transactions, and the one place where a database failure becomes
// STORAGE_UNAVAILABLE. Nothing here decides a registry rule.
import pg from 'pg';
import { RegistryError, storageUnavailable } from '../../domain/registry-error.ts';
import type { Statement } from './sql.ts';

export type Db = pg.PoolClient;

export interface PoolSpec {
  url: string;
  max: number;
  /** Role to assume on every connection (the owner URL case); none when the URL's user is already the role. */
  role?: string;
  statementTimeoutMs: number;
  applicationName: string;
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

export function createPool(spec: PoolSpec): pg.Pool {
  const options = [`-c statement_timeout=${spec.statementTimeoutMs}`, `-c idle_in_transaction_session_timeout=${spec.statementTimeoutMs * 2}`];
  if (spec.role) options.push(`-c role=${spec.role}`);
  const pool = new pg.Pool({
    connectionString: spec.url,
    max: spec.max,
    connectionTimeoutMillis: 5_000,
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
  return pool;
}

/** Any failure that is not already a registry answer is a storage failure ([failure-storage]). */
export function asRegistryError(err: unknown): RegistryError {
  if (RegistryError.is(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return storageUnavailable(`registry storage failed: ${message}`, err);
}

export async function run<R extends pg.QueryResultRow = pg.QueryResultRow>(db: Db | pg.Pool, statement: Statement, values: unknown[] = []): Promise<R[]> {
  const result = await db.query<R>({ name: statement.name, text: statement.text, values });
  return result.rows;
}

async function checkout(pool: pg.Pool): Promise<Db> {
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

/** Connections that ran their PREPARE statements. */
const prepared = new WeakSet<Db>();

export interface MessageTransaction {
  db: Db;
  /** Results of the opening statements, after BEGIN, in order. */
  opened: pg.QueryResult[];
  /** Sends a last statement and COMMIT as one message; returns the statement's rows. */
  commitWith<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string): Promise<R[]>;
}

/**
 * A transaction that travels as few messages as possible. `prepare` (SQL
 * PREPARE statements) runs once per connection, on its first such
 * transaction. BEGIN goes with
 * `opening` (simple-protocol statements, each run with a fresh snapshot, in
 * order), and the body may send its last write together with COMMIT. A
 * statement that fails aborts the rest of its message and the transaction,
 * which is then rolled back.
 */
export async function messageTransaction<T>(
  pool: pg.Pool,
  prepare: string,
  opening: string,
  body: (tx: MessageTransaction) => Promise<T>,
): Promise<T> {
  const db = await checkout(pool);
  let committed = false;
  try {
    if (!prepared.has(db)) {
      await db.query(prepare);
      prepared.add(db);
    }
    const results = (await db.query(`BEGIN;\n${opening}`)) as unknown as pg.QueryResult[];
    const tx: MessageTransaction = {
      db,
      opened: results.slice(1),
      async commitWith<R extends pg.QueryResultRow>(text: string): Promise<R[]> {
        const rs = (await db.query(`${text};\nCOMMIT`)) as unknown as Array<pg.QueryResult<R>>;
        committed = true;
        return rs[0]!.rows;
      },
    };
    const result = await body(tx);
    if (!committed) await db.query('COMMIT');
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
export function refusalOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'FP001' ? (err as Error).message : undefined;
}

/** A single statement outside any explicit transaction. */
export async function read<R extends pg.QueryResultRow = pg.QueryResultRow>(pool: pg.Pool, statement: Statement, values: unknown[] = []): Promise<R[]> {
  try {
    return await run<R>(pool, statement, values);
  } catch (err) {
    throw asRegistryError(err);
  }
}

/** The URL of the same server and credentials with another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${database}`;
  return u.toString();
}
