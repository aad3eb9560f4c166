// Every SQL function's current definition lives in one file,
// sql/functions/<name>.sql; the migrations, applied to a fresh database, must
// install exactly those definitions and no others. The check reads what
// PostgreSQL itself stores (pg_get_functiondef: signature, attributes and
// the body verbatim), so a migration that copies a file wrongly, or a file
// edited without the migration that installs it, fails here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import pg from 'pg';
import { postgresTestDatabases, withClient } from './test-database.ts';

const databases = postgresTestDatabases();
const FUNCTIONS_DIR = new URL('../sql/functions/', import.meta.url);

/** Each file's text, by the function it defines. */
const files = new Map(
  readdirSync(FUNCTIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => [f.slice(0, -4), readFileSync(new URL(f, FUNCTIONS_DIR), 'utf8')] as const),
);

/** The fleetproof_* functions installed, by signature, with their stored definitions. */
async function installed(c: pg.Client): Promise<Map<string, { name: string; definition: string }>> {
  const { rows } = await c.query<{ signature: string; name: string; definition: string }>(
    `SELECT p.oid::regprocedure::text AS signature, p.proname AS name, pg_get_functiondef(p.oid) AS definition
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = current_schema() AND starts_with(p.proname, 'fleetproof_')
     ORDER BY 1`,
  );
  return new Map(rows.map((r) => [r.signature, { name: r.name, definition: r.definition }]));
}

/** Runs `body` in a transaction that is always rolled back. */
async function inRolledBack<T>(c: pg.Client, body: () => Promise<T>): Promise<T> {
  await c.query('BEGIN');
  try {
    return await body();
  } finally {
    await c.query('ROLLBACK');
  }
}

describe('postgres functions: one file each, installed exactly', () => {
  it('each file defines the one function it is named after', () => {
    assert.ok(files.size > 0);
    for (const [name, text] of files) {
      const defined = [...text.matchAll(/^CREATE (?:OR REPLACE )?FUNCTION (\w+)\(/gm)].map((m) => m[1]);
      assert.deepEqual(defined, [name], `sql/functions/${name}.sql`);
    }
  });

  it('the migrations install exactly the definitions of sql/functions/, and nothing else', async () => {
    const db = await databases.create();
    await withClient(db.url, async (c) => {
      const migrated = await installed(c);
      assert.deepEqual([...new Set([...migrated.values()].map((f) => f.name))].sort(), [...files.keys()], 'installed functions and files');
      const fromFiles = await inRolledBack(c, async () => {
        for (const text of files.values()) await c.query(text);
        return installed(c);
      });
      // Applying a file replaces its function in place; any difference in
      // signature (a new overload), attributes or body shows up here.
      for (const [signature, f] of fromFiles)
        assert.equal(migrated.get(signature)?.definition, f.definition, `${signature}: migrated vs sql/functions/${f.name}.sql`);
      assert.deepEqual([...fromFiles.keys()], [...migrated.keys()]);
    });
  });

  it('the check sees a body that differs by one character', async () => {
    const db = await databases.create();
    await withClient(db.url, async (c) => {
      const migrated = await installed(c);
      const [name, text] = [...files][0]!;
      const altered = await inRolledBack(c, async () => {
        await c.query(text.replace(/\$\$\n/, '$$$$\n \n'));
        return installed(c);
      });
      const changed = [...altered].filter(([signature, f]) => migrated.get(signature)?.definition !== f.definition).map(([, f]) => f.name);
      assert.deepEqual(changed, [name]);
    });
  });
});
