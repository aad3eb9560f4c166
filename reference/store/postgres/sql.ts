// The store's SQL: one file per statement in sql/, each opening with a
// comment on what it locks and why. Files are read once, when this module
// loads, and run as named prepared statements, so each connection parses a
// statement once.
import { readdirSync, readFileSync } from 'node:fs';

export interface Statement {
  /** Prepared statement name: the file name. */
  readonly name: string;
  readonly text: string;
}

const SQL_DIR = new URL('./sql/', import.meta.url);

const statements = new Map<string, Statement>();
for (const file of readdirSync(SQL_DIR)) {
  if (!file.endsWith('.sql')) continue;
  const name = file.slice(0, -4);
  statements.set(name, Object.freeze({ name: `fleetproof_${name}`, text: readFileSync(new URL(file, SQL_DIR), 'utf8') }));
}

/** The statement of sql/<name>.sql; a missing file fails at first use, loudly. */
export function sql(name: string): Statement {
  const s = statements.get(name);
  if (!s) throw new Error(`no SQL file sql/${name}.sql`);
  return s;
}

/**
 * Values as the text of a PostgreSQL array ('{"a","b"}'), for a parameter
 * sent many times: rendered once, as one flat string.
 */
export function arrayText(values: readonly (string | number)[]): string {
  const text = `{${values.map((v) => `"${String(v).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  // A string built by many concatenations is a rope; copying it once spares
  // every message that sends it the walk.
  return Buffer.from(text, 'utf8').toString('utf8');
}
