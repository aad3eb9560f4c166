// The shared transport against a small local server: what it sends for each
// kind of speaker, what it records, how it names a request that got no
// answer, and how long the minter reuses a token.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../contract/tokens.ts';
import { anonymous, bearerCredentials, mintedCredentials } from '../credentials.ts';
import type { Exchange } from '../exchange.ts';
import { HttpTransport, TransportError, type TransportFailure } from '../http-transport.ts';
import { operationPath } from '../operation-path.ts';
import { TokenMinter } from '../token-minter.ts';

let seen: { method: string; url: string; authorization: string | undefined; body: string } | undefined;
let behaviour: 'answer' | 'hang' | 'drop' = 'answer';

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    seen = { method: req.method!, url: req.url!, authorization: req.headers.authorization, body };
    if (behaviour === 'hang') return;
    if (behaviour === 'drop') return void res.socket?.destroy();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  });
});
let url: string;
let key: SigningKey;
const transports: HttpTransport[] = [];

function transport(options: Partial<ConstructorParameters<typeof HttpTransport>[0]> = {}): HttpTransport {
  const t = new HttpTransport({ baseUrl: `${url}/`, timeoutMs: 2000, ...options });
  transports.push(t);
  return t;
}

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  key = await signingKeyFromJwk((await generateSigningKeys()).privateJwk);
});
after(async () => {
  for (const t of transports) await t.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('typed operation requests', () => {
  it('percent-encode path parameters, keep raw ones as given and drop absent query values', () => {
    assert.deepEqual(operationPath('getReplica', { params: { replica_id: 'crepl_a/b' } }), {
      method: 'GET',
      path: '/v1/replicas/crepl_a%2Fb',
    });
    assert.equal(operationPath('getReplica', { rawParams: { replica_id: '..%2f' } }).path, '/v1/replicas/..%2f');
    assert.equal(
      operationPath('queryCatalog', { query: { limit: 2, cursor: undefined, unbound: true } }).path,
      '/v1/catalog?limit=2&unbound=true',
    );
    assert.throws(() => operationPath('getReplica', {}), /replica_id missing/);
  });
});

describe('HTTP transport', () => {
  it('sends a minted token for the caller and records the exchange without it', async () => {
    behaviour = 'answer';
    const recorded: Exchange[] = [];
    const t = transport({ credentials: mintedCredentials(new TokenMinter(key)), record: (e) => recorded.push(e) });
    const received = await t.operation('resolveRoute', {
      body: { action_id: 'act-1', capability_id: 'cap-1' },
      as: { roles: ['registry:dispatch'], tenant: 'tenant-a' },
    });
    assert.equal(received.status, 200);
    assert.deepEqual(JSON.parse(received.text), { ok: true });
    assert.equal(seen?.method, 'POST');
    assert.equal(seen?.url, '/v1/routes');
    assert.deepEqual(JSON.parse(seen!.body), { action_id: 'act-1', capability_id: 'cap-1' });
    const claims = decodeJwt(seen!.authorization!.replace(/^Bearer /, ''));
    assert.equal(claims['tenant_id'], 'tenant-a');
    assert.equal(claims['scope'], 'registry:dispatch');
    const [e] = recorded;
    assert.equal(e?.request.headers['authorization'], 'Bearer [redacted]');
    assert.deepEqual(e?.request.caller, { roles: ['registry:dispatch'], tenant: 'tenant-a' });
    assert.equal(e?.response?.status, 200);
    assert.equal(e?.request.body?.bytes, seen!.body.length);
  });

  it('sends nothing for nobody, a given token as is, and a source’s token for a caller', async () => {
    behaviour = 'answer';
    await transport({ credentials: mintedCredentials(new TokenMinter(key)) }).operation('getHealth', { as: null });
    assert.equal(seen?.authorization, undefined);
    await transport({ credentials: anonymous }).send({ method: 'GET', path: '/health', as: { token: 'exact' } });
    assert.equal(seen?.authorization, 'Bearer exact');
    await transport({ credentials: bearerCredentials((c) => `for-${c.tenant ?? 'control'}`) }).operation('getReplica', {
      params: { replica_id: 'crepl_x' },
      as: { roles: ['registry:reader'] },
    });
    assert.equal(seen?.authorization, 'Bearer for-control');
  });

  async function failureOf(t: HttpTransport): Promise<TransportFailure> {
    try {
      await t.operation('getHealth', {});
    } catch (err) {
      assert.ok(TransportError.is(err), String(err));
      assert.ok(err.exchange.transport_error, 'the exchange says why there is no response');
      assert.equal(err.exchange.response, null);
      return err.failure;
    }
    assert.fail('expected no answer');
  }

  it('tells a request that never left from one whose answer was lost or late', async () => {
    behaviour = 'drop';
    assert.equal(await failureOf(transport()), 'lost');
    behaviour = 'hang';
    assert.equal(await failureOf(transport({ timeoutMs: 200 })), 'timeout');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    assert.equal(await failureOf(transport({ baseUrl: `http://127.0.0.1:${port}` })), 'unreachable');
  });

  it('refuses a URL that is not http(s)', () => {
    assert.throws(() => new HttpTransport({ baseUrl: 'ftp://registry', timeoutMs: 1000 }), TypeError);
  });
});

describe('token minter', () => {
  it('reuses a token per roles and tenant until a fifth of its lifetime is left', async () => {
    let now = Date.parse('2026-11-30T12:00:00.000Z');
    const minter = new TokenMinter(key, { ttlSeconds: 100, now: () => now });
    const first = await minter.mint({ roles: ['registry:reader', 'registry:admin'] });
    assert.equal(await minter.mint({ roles: ['registry:admin', 'registry:reader'] }), first, 'role order does not matter');
    assert.notEqual(await minter.mint({ roles: ['registry:admin', 'registry:reader'], tenant: 't1' }), first);
    assert.deepEqual(minter.describe(first), { roles: ['registry:admin', 'registry:reader'], tenant: null });
    now += 79_000;
    assert.equal(await minter.mint({ roles: ['registry:admin', 'registry:reader'] }), first);
    now += 2_000;
    const renewed = await minter.mint({ roles: ['registry:admin', 'registry:reader'] });
    assert.notEqual(renewed, first);
    assert.equal(decodeJwt(renewed).exp, Math.floor(now / 1000) + 100);
  });
});
