// The builtin `pg-terminate` fault ends the reference's sessions and
// only those: with PG_URL the database may be shared, and a session that is
// not the reference's (another program's, or a test's admin pool) survives.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import pg from 'pg';
import { postgresTestDatabases } from '../../reference/store/postgres/test/test-database.ts';
import { SESSION_NAMES } from '../../reference/store/postgres/index.ts';
import { postgresFaults } from '../builtin-faults.ts';

const skip = process.env['PG_URL'] ? false : 'PG_URL is not set: run through `npm test`, which starts an embedded PostgreSQL';

async function session(url: string, applicationName: string): Promise<{ client: pg.Client; ended: () => string | null }> {
  const client = new pg.Client({ connectionString: url, application_name: applicationName });
  let code: string | null = null;
  client.on('error', (err: Error & { code?: string }) => (code = err.code ?? err.message));
  await client.connect();
  return { client, ended: () => code };
}

describe('the pg-terminate fault', { skip }, () => {
  const databases = skip ? undefined : postgresTestDatabases();

  it("terminates the reference's sessions and leaves everyone else's", async () => {
    const db = await databases!.create();
    const reference = await session(db.url, SESSION_NAMES.data);
    const bystander = await session(db.url, 'someone-else');
    const lines: string[] = [];
    const [terminate] = postgresFaults({ url: db.url, version: '', stop: async () => {}, restart: null }, (l) => lines.push(l));
    try {
      assert.equal(terminate?.name, 'pg-terminate');
      await terminate.inject();
      // The first round runs inside inject; an idle client learns of it soon after.
      for (let i = 0; i < 100 && reference.ended() === null; i++) await sleep(50);
      await terminate.heal();
      assert.notEqual(reference.ended(), null, 'the reference session was terminated');
      assert.equal(bystander.ended(), null);
      assert.equal((await bystander.client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one, 1);
      assert.match(lines.join('\n'), /[1-9]\d* backend\(s\) terminated/);
    } finally {
      await terminate?.heal();
      await reference.client.end().catch(() => {});
      await bystander.client.end().catch(() => {});
    }
  });
});
