// The store's SQL: one file per statement in sql/, each opening with a
// comment on what it locks and why. Files are read once, when this module
// loads, and run as named prepared statements, so each connection parses a
// statement once.
//
// The routing statements are also prepared with SQL PREPARE on every data
// connection, so that they can run as EXECUTE inside a simple-protocol
// message holding several statements: BEGIN with the first locks and reads,
// or the last write with its COMMIT, each in one round trip.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

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

/** Every statement, for the index tests. */
export function allStatements(): ReadonlyMap<string, Statement> {
  return statements;
}

/** Statements run through EXECUTE in multi-statement messages. */
const EXECUTABLE = ['open-route', 'open-settle', 'create-route', 'reacquire-route', 'settle-route'];

const executeName = (name: string) => `fleetproof_x_${name.replaceAll('-', '_')}`;

/** The PREPARE statements a data connection runs once, when it opens. */
export function prepareExecutables(): string {
  return EXECUTABLE.map((name) => `PREPARE ${executeName(name)} AS ${sql(name).text}`).join(';\n');
}

/** An argument already rendered by literal(), to be sent as is (rendered once, sent many times). */
export class Rendered {
  readonly sql: string;
  constructor(sql: string) {
    // escapeLiteral builds its result a character at a time; copying it once
    // into one flat string spares every message that embeds it the walk.
    this.sql = Buffer.from(sql, 'utf8').toString('utf8');
  }
}

/** A value as an SQL literal (strings quoted, arrays in array syntax). */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Rendered) return value.sql;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${value} is not an SQL number`);
    return String(value);
  }
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (Array.isArray(value)) {
    const elements = value.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/["\\]/g, '\\$&')}"`));
    return pg.escapeLiteral(`{${elements.join(',')}}`);
  }
  throw new TypeError(`no SQL literal for ${typeof value}`);
}

/** EXECUTE of a prepared routing statement with literal arguments. */
export function execute(name: string, values: readonly unknown[]): string {
  if (!EXECUTABLE.includes(name)) throw new Error(`${name} is not prepared for EXECUTE`);
  return `EXECUTE ${executeName(name)}(${values.map(literal).join(', ')})`;
}
