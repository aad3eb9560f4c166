// The proxy's faults do what their names say, and its ledger says exactly
// which requests it disturbed: a reset one never reached the registry, a lost
// one did (the registry answered) while the client heard nothing.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { startFaultProxy, type FaultProxy } from '../fault-proxy.ts';

describe('the fault proxy', () => {
  let upstream: Server;
  let upstreamUrl: string;
  const seen: string[] = [];
  /** The `?slow` request reached the registry, which answers when `answer` is called. */
  const slow = { arrived: (_answer: () => void) => {} };
  before(async () => {
    upstream = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push(`${req.method} ${req.url}`);
        // A registry that acts on the request and then breaks the connection instead of answering.
        if (req.url?.endsWith('?break')) return req.socket.destroy();
        const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        // A registry that answers only once the test let its client give up.
        if (req.url?.endsWith('?slow')) slow.arrived(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  async function withProxy(body: (proxy: FaultProxy) => Promise<void>): Promise<void> {
    const proxy = await startFaultProxy({ target: upstreamUrl, seed: 7 });
    try {
      await body(proxy);
    } finally {
      await proxy.close();
    }
  }

  const send = (proxy: FaultProxy, path: string, signal?: AbortSignal) =>
    request(`${proxy.url}${path}`, {
      method: 'POST',
      body: '{}',
      ...(signal ? { signal } : {}),
      headers: { 'content-type': 'application/json', 'x-request-id': path.slice(1).split('?')[0]! },
    });

  it('listens on loopback and forwards untouched while healed', () =>
    withProxy(async (proxy) => {
      assert.match(proxy.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await send(proxy, '/healed');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(await res.body.json(), { ok: true });
      assert.deepEqual(proxy.ledger, []);
    }));

  it('resets a connection before forwarding, and the registry never sees the request', () =>
    withProxy(async (proxy) => {
      proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 1, loseResponse: 0 });
      await assert.rejects(send(proxy, '/reset-me'));
      assert.ok(!seen.includes('POST /reset-me'));
      assert.deepEqual(
        proxy.ledger.map((d) => [d.fate, d.requestId, d.status]),
        [['reset-before-forward', 'reset-me', null]],
      );
    }));

  it('loses a response after forwarding, and the registry did act', () =>
    withProxy(async (proxy) => {
      proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 0, loseResponse: 1 });
      await assert.rejects(send(proxy, '/lose-me'));
      assert.ok(seen.includes('POST /lose-me'));
      assert.deepEqual(
        proxy.ledger.map((d) => [d.fate, d.requestId, d.status]),
        [['lost-after-forward', 'lose-me', 200]],
      );
      proxy.heal();
      assert.equal((await send(proxy, '/after-heal')).statusCode, 200);
      assert.equal(proxy.ledger.length, 1);
    }));

  it('never calls an id unsent once an attempt with it reached the registry', () =>
    withProxy(async (proxy) => {
      // A PUT sent again on a new connection carries its first attempt's id: lost first, then reset.
      proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 0, loseResponse: 1 });
      await assert.rejects(send(proxy, '/twice'));
      proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 1, loseResponse: 0 });
      await assert.rejects(send(proxy, '/twice'));
      assert.deepEqual(
        proxy.ledger.map((d) => d.fate),
        ['lost-after-forward', 'reset-before-forward'],
      );
      assert.equal(proxy.fateOf('twice'), 'lost-after-forward', 'the registry acted on the first attempt');
      // Reset first, then lost: the registry acted on the second.
      proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 1, loseResponse: 0 });
      await assert.rejects(send(proxy, '/reset-then-lost'));
      proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 0, loseResponse: 1 });
      await assert.rejects(send(proxy, '/reset-then-lost'));
      assert.equal(proxy.fateOf('reset-then-lost'), 'lost-after-forward');
      // Reset first, then forwarded to a registry that broke the connection: it may have acted.
      proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 1, loseResponse: 0 });
      await assert.rejects(send(proxy, '/reset-then-broken'));
      proxy.heal();
      await assert.rejects(send(proxy, '/reset-then-broken?break'));
      assert.ok(seen.includes('POST /reset-then-broken?break'));
      assert.equal(proxy.fateOf('reset-then-broken'), null, 'not known to be unsent');
      // Lost first, then forwarded to a registry that broke the connection: the second may still be acting.
      proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 0, loseResponse: 1 });
      await assert.rejects(send(proxy, '/lost-then-broken'));
      proxy.heal();
      await assert.rejects(send(proxy, '/lost-then-broken?break'));
      assert.equal(proxy.fateOf('lost-then-broken'), null, 'not known to be done');
      // Reset first, then forwarded while its client gave up before the answer: the registry acted on it.
      proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 1, loseResponse: 0 });
      await assert.rejects(send(proxy, '/reset-then-gone'));
      proxy.heal();
      const gone = new AbortController();
      const answered = new Promise<void>((resolve) => {
        slow.arrived = (answer) => {
          gone.abort();
          setImmediate(() => (answer(), resolve()));
        };
      });
      const forwarded = proxy.counts.forwarded;
      await assert.rejects(send(proxy, '/reset-then-gone?slow', gone.signal));
      await answered;
      // The proxy has passed the answer on (to nobody) once it counts it forwarded: the same step.
      while (proxy.counts.forwarded === forwarded) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(proxy.fateOf('reset-then-gone'), null, 'answered after its client left: not unsent');
    }));
});
