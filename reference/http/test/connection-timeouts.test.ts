// [wire-connection-timeouts]: connections that send nothing, a slowloris
// client that never finishes its head, and an idle keep-alive connection
// are closed by the server at its configured timeouts while GET /health
// keeps answering; past maxConnections a connection is closed at once.
// Short timeouts are configured here; with Node's defaults (headers 60 s,
// checked every 30 s) the idle connections outlive the test's timeout.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openFileLimit } from '../connection-limits.ts';
import { TestRegistry } from './support.ts';

const IDLE = 5_000;
/** Both ends of every connection live in this process, plus the test's own files. */
const FILES_NEEDED = 2 * IDLE + 200;

interface Held {
  socket: Socket;
  /**
   * Resolves when the connection closes; true when the server closed it. This
   * side only closes a socket by destroying it (in `finally`), so any other
   * close is the server's, whether it ended the connection or reset it: the
   * clause asks for a disconnection, not for a FIN.
   */
  closed: Promise<boolean>;
  /** Closes the connection from this side. */
  release(): void;
}

function hold(url: string): Promise<Held> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let released = false;
    const closed = new Promise<boolean>((done) => socket.on('close', () => done(!released)));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', () => {});
      resolve({ socket, closed, release: () => ((released = true), socket.destroy()) });
    });
  });
}

async function health(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${url}/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

const connections = (api: TestRegistry) =>
  new Promise<number>((resolve, reject) => api.server.httpServer.getConnections((err, n) => (err ? reject(err) : resolve(n))));

const limits = { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, keepAliveTimeoutMs: 500, maxConnections: IDLE + 100 };

describe('connection timeouts', { timeout: 60_000 }, () => {
  it('[wire-connection-timeouts] 5,000 idle connections and a slowloris client are closed by the server; /health answers throughout', async (t) => {
    const limit = openFileLimit();
    if (limit !== null && limit < FILES_NEEDED) return t.skip(`needs ${FILES_NEEDED} open files; the limit is ${limit} (raise ulimit -n)`);
    const api = await TestRegistry.start({ connections: limits });
    const held: Held[] = [];
    let trickle: NodeJS.Timeout | undefined;
    let giveUp: NodeJS.Timeout | undefined;
    let slow: Held | undefined;
    try {
      // In batches, so the listen backlog never drops a connection attempt.
      while (held.length < IDLE)
        held.push(...(await Promise.all(Array.from({ length: Math.min(250, IDLE - held.length) }, () => hold(api.url)))));
      slow = await hold(api.url);
      const slowloris = slow;
      slowloris.socket.write('GET /health HTTP/1.1\r\nhost: registry\r\n');
      let n = 0;
      // A header byte every 100 ms: the socket is never inactive, the head never complete.
      trickle = setInterval(() => slowloris.socket.writable && slowloris.socket.write(n++ % 2 ? '\r\n' : 'x-a: b'), 100);
      assert.equal(await health(api.url), 200, 'served with 5,000 idle connections held');
      // A server that never closes them fails here, with its sockets released below, not at the test's timeout:
      // 30 s is fifteen times the request timeout, so only a server that keeps them reaches it.
      const stillOpen = new Promise<'still open'>((done) => (giveUp = setTimeout(() => done('still open'), 30_000)));
      const closedByServer = await Promise.race([Promise.all([...held, slowloris].map((h) => h.closed)), stillOpen]);
      assert.notEqual(closedByServer, 'still open', 'the server still held idle or slowloris connections 30 s on');
      assert.equal((closedByServer as boolean[]).filter(Boolean).length, IDLE + 1, 'the server closed every idle and slowloris connection');
      assert.equal(await health(api.url), 200, 'served after they were cleared');
    } finally {
      clearInterval(trickle);
      clearTimeout(giveUp);
      for (const h of held) h.release();
      slow?.release();
      await api.close();
    }
  });

  it('[wire-connection-timeouts] an idle keep-alive connection is closed after its timeout', async () => {
    const api = await TestRegistry.start({ connections: limits });
    try {
      const kept = await hold(api.url);
      let answer = '';
      kept.socket.on('data', (d) => (answer += d.toString('latin1')));
      kept.socket.write('GET /health HTTP/1.1\r\nhost: registry\r\n\r\n');
      assert.equal(await kept.closed, true, 'closed by the server');
      assert.match(answer, /^HTTP\/1\.1 200 /, 'after answering its request');
    } finally {
      await api.close();
    }
  });

  it('[wire-connection-timeouts] past maxConnections a new connection is closed at once; the server serves again when room is made', async () => {
    const api = await TestRegistry.start({ connections: { ...limits, maxConnections: 3 } });
    const held: Held[] = [];
    try {
      for (let i = 0; i < 3; i++) held.push(await hold(api.url));
      const extra = await hold(api.url);
      extra.socket.write('GET /health HTTP/1.1\r\nhost: registry\r\n\r\n');
      let answered = false;
      extra.socket.on('data', () => (answered = true));
      await extra.closed;
      assert.equal(answered, false, 'the connection above the cap got no answer');
      for (const h of held) h.release();
      await Promise.all(held.map((h) => h.closed));
      // The server counts a connection gone when it sees the close, a moment after the client.
      while ((await connections(api)) > 0) await sleep(20);
      assert.equal(await health(api.url), 200);
    } finally {
      for (const h of held) h.release();
      await api.close();
    }
  });
});
