// Databases for tests, on the server PG_URL names (the test runner starts an
// embedded one when PG_URL is unset). Each test file migrates one template
// database; each store a test opens gets a database of its own, cloned from
// the template, so tests never see each other's data and files run in
// parallel. Cloning costs about a quarter of a second, so a database whose
// test passed is emptied (TRUNCATE, a few ms) and handed to a later test of
// the same file instead of dropped; a failed test's databases are kept, with
// their names printed, for inspection.
import { randomBytes } from 'node:crypto';
import { after, afterEach } from 'node:test';
import pg from 'pg';
import type { StoreFactory } from '../../test/behaviour/world.ts';
import { databaseUrl } from '../database.ts';
import { openPostgresStore, type PostgresStoreOptions } from '../index.ts';
import { migrateRegistrySchema } from '../migrate.ts';
import type { PostgresStore } from '../postgres-store.ts';

export interface TestDatabase {
  name: string;
  /** Owner (superuser) URL of this database. */
  url: string;
}

export { databaseUrl } from '../database.ts';

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

const RECORD_TABLES = [
  'connector_types',
  'connector_versions',
  'capability_definitions',
  'version_capabilities',
  'version_profiles',
  'connector_instances',
  'admission_policies',
  'capability_bindings',
  'connector_replicas',
  'route_assignments',
  'admission_counters',
];

/** Back to the state right after migration: no records, revision 0. */
async function emptyDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, options: '-c lock_timeout=5000' });
  await client.connect();
  try {
    await client.query(`TRUNCATE ${RECORD_TABLES.join(', ')}; UPDATE catalog_revision SET revision = 0, published_at_ms = 0`);
  } finally {
    await client.end();
  }
}

export class TestDatabases {
  private readonly admin: pg.Pool;
  private template: Promise<string> | undefined;
  private readonly prefix = `fp_${process.pid}_${randomBytes(3).toString('hex')}`;
  private count = 0;
  /** Databases handed out since the last test ended. */
  private pending: TestDatabase[] = [];
  /** Databases of passed tests, ready to be emptied and reused. */
  private spare: TestDatabase[] = [];
  private readonly disposable = new Set<string>();

  /** Login roles named after this file's databases start with this; dropped at the end. */
  get rolePrefix(): string {
    return this.prefix;
  }
  readonly kept: string[] = [];

  constructor(readonly serverUrl: string) {
    this.admin = new pg.Pool({ connectionString: databaseUrl(serverUrl, 'postgres'), max: 2 });
    this.admin.on('error', () => {});
  }

  private templateName(): Promise<string> {
    this.template ??= (async () => {
      const name = `${this.prefix}_template`;
      await this.admin.query(`CREATE DATABASE ${name}`);
      await migrateRegistrySchema(databaseUrl(this.serverUrl, name));
      return name;
    })();
    return this.template;
  }

  /**
   * A database holding the migrated schema and no records. A test that
   * alters the schema itself asks for a `disposable` one, never reused.
   */
  async create(options: { disposable?: boolean } = {}): Promise<TestDatabase> {
    let db = options.disposable ? undefined : this.spare.pop();
    if (db) {
      await emptyDatabase(db.url);
    } else {
      const template = await this.templateName();
      const name = `${this.prefix}_${++this.count}`;
      await this.admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      db = { name, url: databaseUrl(this.serverUrl, name) };
    }
    if (options.disposable) this.disposable.add(db.name);
    this.pending.push(db);
    return db;
  }

  /** Opens a store on a new database; the database outlives the store until its test ends. */
  async openStore(options: PostgresStoreOptions = {}): Promise<{ store: PostgresStore; db: TestDatabase }> {
    const db = await this.create();
    const store = (await openPostgresStore({ url: db.url, migrate: false, ...options })) as PostgresStore;
    return { store, db };
  }

  /** The factory of the shared behaviour suite: one fresh database per test. */
  storeFactory(options: PostgresStoreOptions = {}): StoreFactory {
    return async ({ clock, fenceTokens, limits }) => {
      const { store } = await this.openStore({ clock: clock.now, fenceTokens, limits, ...options });
      return { store, close: () => store.close() };
    };
  }

  async drop(name: string): Promise<void> {
    await this.admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }

  /** Called after each test: reuse what a passing test had, keep a failing one's. */
  async settleTest(passed: boolean): Promise<void> {
    const used = this.pending;
    this.pending = [];
    if (!passed) this.kept.push(...used.map((db) => db.name));
    for (const db of passed ? used : []) {
      if (this.disposable.has(db.name)) await this.drop(db.name);
      else this.spare.push(db);
    }
  }

  async close(): Promise<void> {
    await this.settleTest(true);
    for (const db of this.spare.splice(0)) await this.drop(db.name);
    if (this.template) await this.drop(await this.template).catch(() => {});
    const roles = await this.admin.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1)', [this.prefix]);
    for (const { rolname } of roles.rows)
      if (!this.kept.some((k) => rolname.startsWith(k))) await this.admin.query(`DROP ROLE IF EXISTS ${rolname}`);
    if (this.kept.length > 0) console.log(`kept databases of failed tests for inspection: ${this.kept.join(', ')}`);
    await this.admin.end();
  }
}

/**
 * The test databases of one test file, on PG_URL. Call once at the top of a
 * test file: it registers the hooks that drop each test's databases.
 */
export function postgresTestDatabases(): TestDatabases {
  const url = process.env['PG_URL'];
  if (!url) throw new Error('PG_URL is not set: run the PostgreSQL tests through `npm test`, which starts a server');
  const databases = new TestDatabases(url);
  // The hook's context says whether its test passed; a Node without
  // `passed` counts every test as passed (its databases are reused).
  afterEach(async (t) => databases.settleTest(!('passed' in t) || t.passed !== false));
  after(() => databases.close());
  return databases;
}
