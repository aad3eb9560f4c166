// bench:pg with BENCH_STATEMENTS=1: where the server's time per pair goes,
// from pg_stat_statements (nested statements included, so the statements
// inside the store's plpgsql functions show separately). Off by default: the
// extension costs a little on every statement, on both sides of the ratio.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { fmt } from './stats.ts';

export const STATEMENT_SETTINGS = { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } as const;

const SQL_DIR = new URL('../../reference/store/postgres/sql/', import.meta.url);

/** The store's statements by the first line of their file, which pg_stat_statements keeps. */
function statementNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const file of readdirSync(SQL_DIR)) {
    if (!file.endsWith('.sql')) continue;
    names.set(readFileSync(new URL(file, SQL_DIR), 'utf8').split('\n')[0]!, file.replace(/\.sql$/, ''));
  }
  return names;
}

/** Runs `body` on a client of `url` of its own, closed afterwards. */
export async function withClient<T>(url: string, body: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client(url);
  await c.connect();
  try {
    return await body(c);
  } finally {
    await c.end();
  }
}

export function resetStatementStats(url: string): Promise<void> {
  return withClient(url, async (c) => {
    await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await c.query('SELECT pg_stat_statements_reset()');
  });
}

/** The statements of this database that took the most execution time, per pair. */
export function printStatementCosts(url: string, pairs: number, top = 12): Promise<void> {
  const names = statementNames();
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ calls: string; ms: number; toplevel: boolean; query: string }>(
      `SELECT calls, total_exec_time AS ms, toplevel, query FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       ORDER BY total_exec_time DESC LIMIT $1`,
      [top],
    );
    console.log(`statements (pg_stat_statements, execution time per pair; nested ones are inside the calls above them):`);
    for (const r of rows) {
      const name = names.get(r.query.split('\n')[0]!) ?? `${r.query.replace(/\s+/g, ' ').slice(0, 80)}`;
      console.log(`  ${fmt(r.ms / pairs, 3)} ms  ${fmt(Number(r.calls) / pairs, 2)} calls  ${r.toplevel ? '' : '(nested) '}${name}`);
    }
  });
}
