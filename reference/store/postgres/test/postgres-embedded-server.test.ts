// The embedded server's URL reaches it over a Unix socket in its data
// directory, which costs the store and the server less CPU per round trip
// than TCP loopback; TCP on 127.0.0.1 stays open for tools given a host and
// port. A data directory given as a relative path is made absolute, and one
// whose path cannot hold a socket gets a TCP URL.
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { startEmbeddedPostgres } from '../embedded-server.ts';

/** The server's address as the session sees it: null over a Unix socket. */
async function serverAddress(config: string | pg.ClientConfig): Promise<string | null> {
  const given = typeof config === 'string' ? { connectionString: config } : config;
  const client = new pg.Client({ ...given, connectionTimeoutMillis: 10_000, query_timeout: 10_000 });
  await client.connect();
  try {
    return (await client.query<{ a: string | null }>('SELECT host(inet_server_addr()) AS a')).rows[0]!.a;
  } finally {
    await client.end();
  }
}

const root = await mkdtemp(join(tmpdir(), 'fleetproof-embedded-'));
await chmod(root, 0o755); // as root, the server runs as its own user, which must reach its data directory
after(() => rm(root, { recursive: true, force: true }));

describe('the embedded PostgreSQL server', { concurrency: true }, () => {
  it('is reached over its Unix socket, before and after a restart, and over TCP by host and port', async () => {
    const server = await startEmbeddedPostgres({ ephemeral: true });
    try {
      assert.ok(server.socketDir, 'a temporary data directory holds the socket');
      assert.equal(await serverAddress(server.url), null, 'the URL goes through the socket');
      const password = new URL(server.url).password;
      const tcp = { host: '127.0.0.1', port: server.port, user: 'postgres', password, database: 'postgres' };
      assert.equal(await serverAddress(tcp), '127.0.0.1');
      await server.halt();
      await server.resume();
      assert.equal(await serverAddress(server.url), null, 'the socket is back after a restart');
    } finally {
      await server.stop();
    }
  });

  it('takes a data directory given relative to the working directory, socket included', async () => {
    const dir = join(root, 'relative');
    await mkdir(dir);
    const server = await startEmbeddedPostgres({ ephemeral: true, dir: relative(process.cwd(), dir) });
    try {
      assert.equal(server.socketDir, dir);
      assert.equal(await serverAddress(server.url), null);
    } finally {
      await server.stop();
    }
  });

  it('gets a TCP URL when its data directory’s path is too long for a socket', async () => {
    const dir = join(root, 'd'.repeat(100));
    await mkdir(dir);
    const server = await startEmbeddedPostgres({ ephemeral: true, dir });
    try {
      assert.equal(server.socketDir, null);
      assert.equal(await serverAddress(server.url), '127.0.0.1');
    } finally {
      await server.stop();
    }
  });
});
