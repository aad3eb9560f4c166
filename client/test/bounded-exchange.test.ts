// Every exchange ends, and ends honestly, whatever the target does: one
// deadline covers the whole exchange, an answer past the bound is refused
// without being held, a kept-alive connection closed under a request that may
// be repeated costs nothing, and an early 413 is the answer the target sent.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { Agent } from 'undici';
import { answerLimitOf } from '../answer-limit.ts';
import { burstConnections } from '../connections.ts';
import { AnswerTooLarge, HttpTransport, TransportError, type Received } from '../http-transport.ts';
import { DEFAULT_LIMITS } from '../../contract/records.ts';
import { headOf, jsonAnswer, loopbackTarget, writeAnswer, writeMany, type Handler, type LoopbackTarget } from './loopback-target.ts';

const opened: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const o of opened.reverse()) await o.close();
});

async function target(handler: Handler, options?: Parameters<typeof loopbackTarget>[1]): Promise<LoopbackTarget> {
  const t = await loopbackTarget(handler, options);
  opened.push(t);
  return t;
}

function transportTo(t: LoopbackTarget, options: Partial<ConstructorParameters<typeof HttpTransport>[0]> = {}): HttpTransport {
  const transport = new HttpTransport({ baseUrl: t.url, timeoutMs: 2000, ...options });
  opened.push(transport);
  return transport;
}

async function failure(sending: Promise<Received>): Promise<TransportError> {
  const err = await sending.then(
    () => assert.fail('expected no answer'),
    (e: unknown) => e,
  );
  assert.ok(TransportError.is(err), String(err));
  return err;
}

const ok = jsonAnswer(200, { status: 'ok' });

describe('one deadline on the whole exchange', () => {
  it('a body trickled a byte at a time ends at the deadline, not at the first pause', async () => {
    const t = await target(async (_req, socket) => {
      socket.write(headOf(ok, 1000));
      for (let i = 0; i < 1000 && !socket.destroyed; i++) {
        socket.write(' ');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    const err = await failure(transportTo(t, { timeoutMs: 600 }).send({ method: 'GET', path: '/health' }));
    assert.equal(err.failure, 'timeout');
    assert.equal(err.message, 'GET /health: no whole answer within 600 ms', 'the deadline is the whole reason');
  });

  it('a head trickled a byte at a time ends at the deadline too', async () => {
    const t = await target(async (_req, socket) => {
      for (const byte of headOf(ok)) {
        if (socket.destroyed) return;
        socket.write(byte);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    assert.equal((await failure(transportTo(t, { timeoutMs: 600 }).send({ method: 'GET', path: '/health' }))).failure, 'timeout');
  });
});

describe('a bound on what an answer may hold', () => {
  const huge = 512 * 1024 * 1024;

  it('is derived from the declared limits, never below 1 MiB', () => {
    assert.equal(answerLimitOf(DEFAULT_LIMITS), 4 * DEFAULT_LIMITS.max_body_bytes);
    const smallest = { ...DEFAULT_LIMITS, max_page_bytes: 2048, max_body_bytes: 65_536, max_batch_items: 100, max_page_size: 1 };
    assert.equal(answerLimitOf(smallest), 1024 * 1024);
  });

  for (const declared of [true, false]) {
    it(`a 512 MB answer ${declared ? 'declared by Content-Length' : 'without a length'} is refused at the bound, not read`, async () => {
      let written = 0;
      const t = await target(async (_req, socket) => {
        socket.write(declared ? headOf(ok, huge) : 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n');
        written = await writeMany(socket, huge);
      });
      const transport = transportTo(t, { answerLimitBytes: 4 * 1024 * 1024 });
      const err = await transport.send({ method: 'GET', path: '/v1/fleet/status' }).then(
        () => assert.fail('expected the answer to be refused'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof AnswerTooLarge, String(err));
      assert.equal(err.code, 'FP_ERR_ANSWER_TOO_LARGE');
      assert.match(err.message, declared ? /536870912 bytes \(Content-Length\), more than the 4 MiB/ : /over 4 MiB/);
      assert.match(err.exchange.transport_error ?? '', /FP_ERR_ANSWER_TOO_LARGE/);
      // The target stops writing once the harness drops the connection: far from the whole body.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(written < huge / 8, `the target wrote ${written} bytes`);
    });
  }
});

/** Answers each connection's first request; closes it as the next request arrives (FIN, or a reset). */
const closesReused =
  (how: 'end' | 'reset'): Handler =>
  (req, socket) => {
    if (req.earlier === 0) return writeAnswer(socket, ok);
    if (how === 'reset') socket.resetAndDestroy();
    else socket.destroy();
  };

describe('a kept-alive connection closed as the next request arrives', () => {
  for (const how of ['end', 'reset'] as const) {
    it(`a read or a PUT is sent again once on a new connection (${how})`, async () => {
      const t = await target(closesReused(how));
      const transport = transportTo(t, { connections: 1 });
      assert.equal((await transport.send({ method: 'GET', path: '/health' })).status, 200);
      const put = await transport.send({ method: 'PUT', path: '/v1/connector-types/ctype_a', body: '{}' });
      assert.equal(put.status, 200);
      assert.match(put.exchange.resent ?? '', /kept-alive connection closed under the first attempt/);
      await transport.send({ method: 'GET', path: '/health' });
      assert.equal((await transport.send({ method: 'GET', path: '/health' })).status, 200);
      assert.deepEqual(
        t.seen.map((r) => [r.method, r.earlier]),
        [
          ['GET', 0],
          ['PUT', 1],
          ['PUT', 0],
          ['GET', 0],
          ['GET', 1],
          ['GET', 0],
        ],
      );
    });
  }

  it('a request that may not be repeated never meets a connection idle long enough to be closing', async () => {
    // Closes a connection idle 1.5 s as its next request arrives: a target keeping idle connections that long.
    const t = await target((req, socket) => (req.idleMs !== null && req.idleMs >= 1500 ? void socket.destroy() : writeAnswer(socket, ok)));
    const transport = transportTo(t, { connections: 1 });
    for (let i = 0; i < 3; i++) {
      assert.equal((await transport.send({ method: 'POST', path: '/v1/routes', body: '{}' })).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 1600));
    }
    assert.deepEqual(
      t.seen.map((r) => r.method),
      ['POST', 'POST', 'POST'],
      'each POST was sent once',
    );
  });

  it("over a burst's connections, a warm-up read on one the target closed is sent again; the POST after it opens a new one", async () => {
    const t = await target(closesReused('reset'));
    const pool = burstConnections(t.url, 1);
    opened.push(pool);
    const transport = transportTo(t).through(pool);
    await transport.send({ method: 'GET', path: '/health' });
    const warm = await transport.send({ method: 'GET', path: '/health' });
    assert.equal(warm.status, 200);
    assert.match(warm.exchange.resent ?? '', /kept-alive connection closed under the first attempt/);
    assert.equal((await transport.send({ method: 'POST', path: '/v1/routes', body: '{}' })).status, 200);
    assert.deepEqual(
      t.seen.map((r) => [r.method, r.earlier]),
      [
        ['GET', 0],
        ['GET', 1],
        ['GET', 0],
        ['POST', 0],
      ],
    );
  });

  it('over connections a caller opened, a POST that a closing connection lost stays lost: sent once', async () => {
    const t = await target(closesReused('end'));
    const pool = new Agent({ connections: 1 });
    opened.push(pool);
    const transport = transportTo(t).through(pool);
    await transport.send({ method: 'GET', path: '/health' });
    assert.equal((await failure(transport.send({ method: 'POST', path: '/v1/routes', body: '{}' }))).failure, 'lost');
    assert.equal(t.seen.filter((r) => r.method === 'POST').length, 1);
  });

  it('a read whose answer broke after its head is not sent again: the target answered', async () => {
    const t = await target((req, socket) => {
      if (req.earlier === 0) return writeAnswer(socket, ok);
      socket.write(headOf(ok));
      socket.write(ok.body.subarray(0, 3));
      socket.destroy();
    });
    const transport = transportTo(t, { connections: 1 });
    await transport.send({ method: 'GET', path: '/health' });
    assert.equal((await failure(transport.send({ method: 'GET', path: '/health' }))).failure, 'lost');
    assert.equal(t.seen.length, 2);
  });

  it('a read a new connection lost is not sent again', async () => {
    const t = await target((_req, socket) => void socket.destroy());
    assert.equal((await failure(transportTo(t).send({ method: 'GET', path: '/health' }))).failure, 'lost');
    assert.equal(t.seen.length, 1);
  });
});

describe('an early answer to a body the target does not read', () => {
  const tooLarge = jsonAnswer(413, { error: { code: 'PAYLOAD_TOO_LARGE', message: 'too large' } });
  const closings: Record<string, (socket: Socket) => void> = {
    'closes at once': (socket) => socket.destroy(),
    resets: (socket) => socket.resetAndDestroy(),
    'half-closes, then closes': (socket) => {
      socket.end();
      setTimeout(() => socket.destroy(), 20);
    },
  };
  for (const [name, close] of Object.entries(closings)) {
    it(`is the answer the target sent: 413 after the first chunk, then it ${name}`, async () => {
      const t = await target(() => {}, {
        onHead: (_req, socket) => {
          socket.once('data', () => {
            writeAnswer(socket, tooLarge);
            close(socket);
          });
          return true;
        },
      });
      const transport = transportTo(t, { timeoutMs: 10_000 });
      const body = ' '.repeat(4 * 1024 * 1024);
      for (let i = 0; i < 10; i++) {
        for (const method of ['PUT', 'POST']) {
          const reply = await transport.send({ method, path: '/v1/connector-types/ctype_a', body });
          assert.deepEqual([reply.status, JSON.parse(reply.text).error.code], [413, 'PAYLOAD_TOO_LARGE']);
        }
      }
    });
  }
});
