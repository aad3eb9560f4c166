// The PostgreSQL server behind `certify --store postgres`: PG_URL when set,
// otherwise an embedded server the run starts and stops. Its version goes
// into the report's environment.
import pg from 'pg';
import { startEmbeddedPostgres } from './store/postgres/embedded-server.ts';

export interface CertificationPostgres {
  url: string;
  version: string;
  stop(): Promise<void>;
  /** Stops and starts the server on its data (an embedded server only; PG_URL belongs to someone else). */
  restart: { halt(): Promise<void>; resume(): Promise<void> } | null;
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return String((await client.query<{ version: string }>('SELECT version() AS version')).rows[0]?.version ?? 'unknown');
  } finally {
    await client.end();
  }
}

export async function embeddedPostgres(log: (line: string) => void): Promise<CertificationPostgres> {
  const given = process.env['PG_URL'];
  if (given) return { url: given, version: await serverVersion(given), stop: async () => {}, restart: null };
  log('starting an embedded PostgreSQL server');
  const server = await startEmbeddedPostgres();
  try {
    return {
      url: server.url,
      version: await serverVersion(server.url),
      stop: () => server.stop(),
      restart: { halt: () => server.halt(), resume: () => server.resume() },
    };
  } catch (err) {
    await server.stop();
    throw err;
  }
}
