// The embedded reference's own faults for `--nemesis builtin`: its
// PostgreSQL client backends terminated (again and again while the fault
// lasts), and its PostgreSQL server stopped and started on the same data.
// Only the composition root knows the database behind the reference.
// Only the reference's own sessions (by their application_name) are
// terminated: with PG_URL the server and its database belong to someone
// else, whose sessions must survive the run.
import pg from 'pg';
import type { Fault } from '../certify/nemesis/nemesis.ts';
import type { CertificationPostgres } from '../reference/embedded-postgres.ts';
import { SESSION_NAMES } from '../reference/store/postgres/index.ts';

const TERMINATE_EVERY_MS = 250;
const TERMINATE = `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
  WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
    AND application_name IN ('${SESSION_NAMES.control}', '${SESSION_NAMES.data}')`;

function terminateBackends(url: string, log: (line: string) => void): Fault {
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let terminated = 0;
  return {
    name: 'pg-terminate',
    async inject() {
      client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      const c = client;
      const once = () =>
        c.query<{ n: number }>(TERMINATE).then(
          (r) => void (terminated += r.rows[0]?.n ?? 0),
          () => {},
        );
      await once();
      timer = setInterval(() => void once(), TERMINATE_EVERY_MS);
    },
    async heal() {
      if (timer) clearInterval(timer);
      timer = null;
      await client?.end().catch(() => {});
      client = null;
      log(`  ${terminated} backend(s) terminated so far`);
    },
  };
}

function restartServer(restart: NonNullable<CertificationPostgres['restart']>): Fault {
  let halted = false;
  return {
    name: 'pg-restart',
    async inject() {
      halted = true;
      await restart.halt();
    },
    async heal() {
      if (!halted) return;
      await restart.resume();
      halted = false;
    },
  };
}

export function postgresFaults(postgres: CertificationPostgres, log: (line: string) => void): Fault[] {
  return [terminateBackends(postgres.url, log), ...(postgres.restart ? [restartServer(postgres.restart)] : [])];
}
