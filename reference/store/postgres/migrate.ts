// Schema migrations: numbered plain-SQL files in migrations/, applied in one
// transaction under an advisory lock so that processes starting together
// serialise (the second finds the work done). Each applied file is recorded
// with the SHA-256 of its exact text; a recorded file whose text changed is a
// refusal, never a silent re-run.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { storageUnavailable } from '../../../contract/registry-error.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

function loadMigrations(): Migration[] {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
  return files.map((file, i) => {
    const version = Number(file.slice(0, 4));
    if (version !== i + 1) throw new Error(`migration ${file} is out of sequence`);
    const sql = readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8');
    return { version, name: file.slice(5, -4), sql, checksum: createHash('sha256').update(sql, 'utf8').digest('hex') };
  });
}

export const MIGRATIONS: readonly Migration[] = loadMigrations();
/** The schema version this code needs, exactly. */
export const SCHEMA_VERSION = MIGRATIONS.length;

// pg_advisory_xact_lock key for migrations: ASCII "FPSCHEMA".
const MIGRATION_LOCK = '5066641129232223553';

const CREATE_VERSION_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at_ms bigint NOT NULL
  )`;

/** Applies every pending migration; returns the versions applied now. */
export async function migrateRegistrySchema(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url, application_name: 'fleetproof-migrate' });
  try {
    await client.connect();
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(CREATE_VERSION_TABLE);
    const recorded = new Map<number, string>();
    for (const row of (await client.query<{ version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations')).rows) {
      recorded.set(row.version, row.checksum);
    }
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      const checksum = recorded.get(m.version);
      if (checksum !== undefined) {
        if (checksum !== m.checksum) throw storageUnavailable(`migration ${m.version} (${m.name}) checksum changed since it was applied`);
        continue;
      }
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name, checksum, applied_at_ms) VALUES ($1, $2, $3, $4)', [
        m.version,
        m.name,
        m.checksum,
        Date.now(),
      ]);
      applied.push(m.version);
    }
    const newer = [...recorded.keys()].filter((v) => v > SCHEMA_VERSION);
    if (newer.length > 0)
      throw storageUnavailable(`the database has schema version ${Math.max(...newer)}, newer than this code's ${SCHEMA_VERSION}`);
    await client.query('COMMIT');
    return applied;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A data-plane process never migrates: it checks that the installed schema is
 * exactly the one it was built for.
 */
export async function verifySchemaVersion(query: (sql: string) => Promise<{ rows: Array<{ version: number | null }> }>): Promise<void> {
  let installed: number | null;
  try {
    installed = (await query('SELECT max(version)::integer AS version FROM schema_migrations')).rows[0]?.version ?? null;
  } catch (err) {
    throw storageUnavailable(`cannot read the schema version: ${(err as Error).message}`, err);
  }
  if (installed !== SCHEMA_VERSION) {
    throw storageUnavailable(`the database has schema version ${installed ?? 'none'}; this registry needs exactly ${SCHEMA_VERSION}`);
  }
}
