// PostgreSQL databases for `npm run power`, on PG_URL or on an embedded
// server started for the run: one migrated template, and a fresh clone of it
// for each defect, dropped when the defect is judged, so no defect sees
// another's data.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrl } from '../../reference/store/postgres/database.ts';
import { migrateRegistrySchema, startEmbeddedPostgres } from '../../reference/store/postgres/index.ts';

export interface PowerDatabases {
  /** A fresh registry database's owner URL, and how to drop it. */
  fresh(): Promise<{ url: string; drop(): Promise<void> }>;
  close(): Promise<void>;
}

export async function powerDatabases(given: string | undefined): Promise<PowerDatabases> {
  const server = given ? null : await startEmbeddedPostgres({ ephemeral: true });
  const serverUrl = given ?? server!.url;
  const admin = new pg.Pool({ connectionString: databaseUrl(serverUrl, 'postgres'), max: 2 });
  // An idle connection the server ends (57P01 as it shuts down) is an 'error' event on the pool, which
  // would end the run after every defect was judged; a query of ours that fails still rejects its promise.
  admin.on('error', () => {});
  const prefix = `fp_power_${process.pid}_${randomBytes(3).toString('hex')}`;
  const template = `${prefix}_template`;
  await admin.query(`CREATE DATABASE ${template}`);
  await migrateRegistrySchema(databaseUrl(serverUrl, template));
  let count = 0;
  // One clone at a time: a template being copied must have no other user.
  let cloning: Promise<unknown> = Promise.resolve();
  const drop = (name: string) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined);
  return {
    async fresh() {
      const name = `${prefix}_${++count}`;
      const created = cloning.then(() => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      cloning = created.catch(() => undefined);
      await created;
      return { url: databaseUrl(serverUrl, name), drop: () => drop(name) };
    },
    async close() {
      await drop(template);
      await admin.end();
      await server?.stop();
    },
  };
}
