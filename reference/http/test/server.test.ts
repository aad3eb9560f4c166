// The server around the operations: routing misses, request ids, error
// mapping for store failures, readiness, body limits at the socket level, the
// advertised limits and graceful shutdown.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { RegistryError, storageUnavailable } from '../../../contract/registry-error.ts';
import type { RegistryStore } from '../../store/registry-store.ts';
import { MAX_JSON_DEPTH } from '../request-body.ts';
import { DRAIN_IDLE_MS } from '../unread-body.ts';
import { b, expectError, expectOk, TestRegistry, type TestRegistryOptions } from './support.ts';

async function withRegistry(options: TestRegistryOptions, body: (api: TestRegistry) => Promise<void>): Promise<void> {
  const api = await TestRegistry.start(options);
  try {
    await body(api);
  } finally {
    await api.close();
  }
}

/** A store whose named methods are replaced; every other call reaches the memory store. */
function overriding(overrides: Partial<Record<keyof RegistryStore, (...args: never[]) => unknown>>) {
  return (store: RegistryStore): RegistryStore =>
    new Proxy(store, {
      get(target, prop, receiver) {
        const replaced = overrides[prop as keyof RegistryStore];
        if (replaced) return replaced;
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
}

/** Sends raw bytes and collects whatever comes back until the server closes or `ms` pass. */
function rawExchange(url: string, chunks: Array<string | Buffer>, ms = 2000): Promise<{ response: string; closedByServer: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let response = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ response, closedByServer: false });
    }, ms);
    socket.on('data', (d) => (response += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ response, closedByServer: true });
    });
    socket.on('error', (err) =>
      (err as NodeJS.ErrnoException).code === 'ECONNRESET' || (err as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : reject(err),
    );
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
    });
  });
}

describe('HTTP server', () => {
  it('[wire-unknown-route] unknown paths are NOT_FOUND before authentication; other methods are METHOD_NOT_ALLOWED with Allow', () =>
    withRegistry({}, async (api) => {
      for (const path of ['/nope', '/v1', '/v1/', '/v1/routes/', '/v1/replicas/crepl_a/extra', '/V1/catalog']) {
        expectError(await api.raw('GET', path), 404, 'NOT_FOUND');
      }
      const replica = await api.raw('DELETE', '/v1/replicas/crepl_a');
      expectError(replica, 405, 'METHOD_NOT_ALLOWED');
      assert.deepEqual(String(replica.headers['allow']).split(', ').sort(), ['GET', 'PUT']);
      const health = await api.raw('POST', '/health', { body: '{}', headers: { 'content-type': 'application/json' } });
      expectError(health, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(health.headers['allow'], 'GET');
    }));

  it('[wire-request-id] a printable client request id of at most 128 characters is echoed; otherwise one is generated', () =>
    withRegistry({}, async (api) => {
      const echoed = await api.raw('GET', '/health', { headers: { 'x-request-id': 'trace id: 42/é'.replace('é', 'e') } });
      assert.equal(echoed.headers['x-request-id'], 'trace id: 42/e');
      const long = 'x'.repeat(129);
      const generated = new Set<string>();
      const variants: Array<Record<string, string>> = [{}, { 'x-request-id': long }, { 'x-request-id': 'tab\there' }];
      for (const headers of variants) {
        const res = await api.raw('GET', '/v1/nothing', { headers });
        const id = String(res.headers['x-request-id']);
        assert.notEqual(id, long);
        assert.ok(!id.includes('\t'));
        assert.equal(res.body.error.request_id, id);
        generated.add(id);
      }
      assert.equal(generated.size, 3, 'generated ids are unique');
    }));

  it('[error-body] a failure that is not a registry error is INTERNAL, logged with its request id', async () => {
    const logged: string[] = [];
    const options: TestRegistryOptions = {
      log: (message) => logged.push(message),
      wrapStore: overriding({
        getReplica: () => Promise.reject(new TypeError('a defect')),
      }),
    };
    await withRegistry(options, async (api) => {
      const res = await api.raw('GET', '/v1/replicas/crepl_a', {
        headers: { authorization: `Bearer ${await api.token(['registry:reader'])}`, 'x-request-id': 'req-500' },
      });
      expectError(res, 500, 'INTERNAL');
      assert.equal(res.body.error.message.includes('defect'), false, 'the defect is not shown to the caller');
      assert.equal(logged.length, 1);
      assert.match(logged[0]!, /req-500/);
    });
  });

  it('[error-body] a store answer that cannot be serialised is INTERNAL, and the server keeps serving', async () => {
    const logged: string[] = [];
    const options: TestRegistryOptions = {
      log: (message) => logged.push(message),
      wrapStore: overriding({ fleetStatus: () => Promise.resolve({ observed_at: 1n }) }),
    };
    await withRegistry(options, async (api) => {
      const headers = { authorization: `Bearer ${await api.token(['registry:operator'])}` };
      expectError(await api.raw('GET', '/v1/fleet/status', { headers }), 500, 'INTERNAL');
      assert.equal(logged.length, 1);
      expectOk(await api.call('getHealth', { token: null }));
    });
  });

  it('[failure-storage] STORAGE_UNAVAILABLE from the store is 503 and nothing else', () =>
    withRegistry({ wrapStore: overriding({ getReplica: () => Promise.reject(storageUnavailable('database down')) }) }, async (api) => {
      expectError(await api.call('getReplica', { params: { replica_id: 'crepl_a' } }), 503, 'STORAGE_UNAVAILABLE');
    }));

  it('[failure-overload] an overloaded store is STORAGE_UNAVAILABLE with retry_after_ms and Retry-After in whole seconds', () =>
    withRegistry(
      {
        wrapStore: overriding({
          getReplica: () => Promise.reject(new RegistryError('STORAGE_UNAVAILABLE', 'overloaded', { retryAfterMs: 1500 })),
        }),
      },
      async (api) => {
        const res = await api.call('getReplica', { params: { replica_id: 'crepl_a' } });
        expectError(res, 503, 'STORAGE_UNAVAILABLE');
        assert.equal(res.body.error.retry_after_ms, 1500);
        assert.equal(res.headers['retry-after'], '2');
      },
    ));

  it('[ops-ready] readiness follows the store and is 503 when it cannot serve', async () => {
    await withRegistry({ wrapStore: overriding({ ready: () => Promise.resolve(false) }) }, async (api) => {
      const res = await api.call('getReady', { token: null });
      assert.equal(res.status, 503);
      assert.equal(res.body.status, 'not_ready');
    });
    await withRegistry({ wrapStore: overriding({ ready: () => Promise.reject(new Error('pool closed')) }) }, async (api) => {
      const res = await api.call('getReady', { token: null });
      assert.deepEqual(
        res.body,
        { status: 'not_ready', detail: 'the store cannot serve requests' },
        'the cause is logged, not told to anonymous callers',
      );
    });
  });

  it('[ops-version] /version advertises the store limits with the body limit the server enforces', () =>
    withRegistry({ maxBodyBytes: 65_536 }, async (api) => {
      const version = expectOk(await api.call('getVersionInfo', { token: null }));
      assert.deepEqual(version.limits, { ...api.store.limits, max_body_bytes: 65_536 });
      assert.equal(version.implementation.name, 'fleetproof-reference');
    }));

  it('[wire-body-limit] a declared Content-Length above the limit is refused before the body arrives', () =>
    withRegistry({ maxBodyBytes: 65_536 }, async (api) => {
      const token = await api.token(['registry:admin']);
      const head = `PUT /v1/connector-types/ctype_big HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: 1000000000\r\n\r\n`;
      const { response, closedByServer } = await rawExchange(api.url, [head]);
      assert.match(response, /^HTTP\/1\.1 413 /);
      assert.match(response, /"PAYLOAD_TOO_LARGE"/);
      assert.ok(closedByServer, 'the connection is closed so the unread body is never taken as a request');
      assert.equal(await api.store.getConnectorType('ctype_big'), null);
    }));

  it('[wire-body-limit] a chunked body is answered as soon as it passes the limit, and cut off when the rest stops coming', () =>
    withRegistry({ maxBodyBytes: 65_536 }, async (api) => {
      const token = await api.token(['registry:admin']);
      const head = `PUT /v1/connector-types/ctype_big HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;
      const chunk = `1000\r\n${'x'.repeat(0x1000)}\r\n`;
      // Seventeen chunks pass the limit (the smallest legal one); the stream never ends, so only an early answer can arrive.
      const { response, closedByServer } = await rawExchange(
        api.url,
        [head, ...Array.from({ length: 17 }, () => chunk)],
        2 * DRAIN_IDLE_MS + 1000,
      );
      assert.match(response, /^HTTP\/1\.1 413 /);
      assert.ok(closedByServer, 'a refused body that stops coming is not waited for');
    }));

  it('[error-no-server-error-on-input] deeply nested JSON is INVALID_REQUEST, not a stack overflow', () =>
    withRegistry({}, async (api) => {
      const type = b.connectorType('ctype_deep');
      expectOk(await api.call('putConnectorType', { params: { type_id: type.id }, body: type }));
      const version = b.version('cver_deep', type.id, [b.capability('cap.deep')]);
      const nested = (depth: number) =>
        JSON.stringify(version).replace('"input_schema":{', `"input_schema":{"deep":${'['.repeat(depth)}${']'.repeat(depth)},`);
      for (const depth of [MAX_JSON_DEPTH, 20_000, 400_000]) {
        const res = await api.call('admitVersion', { params: { version_id: version.id }, body: nested(depth) });
        expectError(res, 400, 'INVALID_REQUEST');
        assert.match(res.body.error.message, /nests deeper/);
      }
      // A closed body is refused past the deepest value its schema accepts, before it is parsed.
      const deepTopology = `{"action_id":"a","capability_id":"c","topology":${'['.repeat(400_000)}${']'.repeat(400_000)}}`;
      const deepResolve = await api.call('resolveRoute', {
        token: await api.token(['registry:dispatch'], 'tenant-deep'),
        body: deepTopology,
      });
      expectError(deepResolve, 400, 'INVALID_REQUEST');
      assert.match(deepResolve.body.error.message, /nests deeper than 2 levels/);
      // Just inside the bound the body reaches the store, which judges the (now wrong) manifest digest.
      const inside = await api.call('admitVersion', { params: { version_id: version.id }, body: nested(MAX_JSON_DEPTH - 5) });
      expectError(inside, 422, 'ADMISSION_REJECTED');
      assert.equal(await api.store.getVersion(version.id), null);
    }));

  it('[wire-json] a body without Content-Type is refused; an operation without one needs a body', () =>
    withRegistry({}, async (api) => {
      const token = await api.token(['registry:admin']);
      const headers = { authorization: `Bearer ${token}` };
      expectError(await api.raw('PUT', '/v1/connector-types/ctype_a', { headers, body: '{}' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectError(await api.raw('PUT', '/v1/connector-types/ctype_a', { headers }), 400, 'INVALID_REQUEST');
    }));

  it('[ops-health] close() lets an in-flight request finish, then stops accepting', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inStore = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const options: TestRegistryOptions = {
      wrapStore: (store) =>
        overriding({
          fleetStatus: async () => {
            entered();
            await gate;
            return store.fleetStatus();
          },
        })(store),
    };
    const api = await TestRegistry.start(options);
    try {
      const pending = api.call('getFleetStatus', {});
      await inStore;
      const closed = api.server.close();
      let closedYet = false;
      void closed.then(() => (closedYet = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(closedYet, false, 'close waits for the request in flight');
      await assert.rejects(rawExchange(api.url, ['GET /health HTTP/1.1\r\nhost: x\r\n\r\n']), /ECONNREFUSED/);
      release();
      const res = await pending;
      assert.equal(res.status, 200);
      await closed;
    } finally {
      // A failed assertion must not leave the request, and with it close(), waiting on the gate.
      release();
      await api.close();
    }
  });
});
