// The harness client checks every response before a case sees it. Each test
// points it at a small server that answers one way the contract forbids,
// and asserts the violation becomes a ConformanceFailure citing the right
// clause and carrying the exchange, or a HarnessError when nothing was
// observed (no answer, STORAGE_UNAVAILABLE where storage may be reached).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { generateSigningKeys, signingKeyFromJwk } from '../../contract/tokens.ts';
import { HttpTransport } from '../../client/http-transport.ts';
import { RegistryClient } from '../harness/client.ts';
import type { Exchange } from '../harness/exchange.ts';
import { ConformanceFailure, HarnessError } from '../harness/failure.ts';
import { HarnessTokens } from '../harness/tokens.ts';

type Answer = { status: number; body?: unknown; text?: string; headers?: Record<string, string> };
let answer: Answer = { status: 200 };
/** The answer of GET /ready, when it should differ from `answer`. */
let readyAnswer: Answer | undefined;
let lastAuthorization: string | undefined;

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  lastAuthorization = req.headers.authorization;
  req.resume();
  const given = req.url === '/ready' && readyAnswer ? readyAnswer : answer;
  const text = given.text ?? JSON.stringify(given.body ?? {});
  res.writeHead(given.status, { 'content-type': 'application/json', ...given.headers });
  res.end(text);
});
let transport: HttpTransport;
const recorded: Exchange[] = [];
let client: RegistryClient;

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { privateJwk } = await generateSigningKeys();
  const tokens = new HarnessTokens(await signingKeyFromJwk(privateJwk), 'fleetproof-registry');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  transport = new HttpTransport({ baseUrl: url, credentials: tokens.credentials, timeoutMs: 2000, record: (e) => recorded.push(e) });
  client = new RegistryClient({ transport });
});
after(async () => {
  await transport.close();
  server.close();
});

async function failureOf(promise: Promise<unknown>): Promise<ConformanceFailure> {
  try {
    await promise;
  } catch (err) {
    assert.ok(ConformanceFailure.is(err), `expected a ConformanceFailure, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a ConformanceFailure, the call passed');
}

const getType = () => client.as({ roles: ['registry:reader'] }).call('getConnectorType', { params: { type_id: 'ctype_x' } });
const error = (code: string, extra: object = {}) => ({ error: { code, message: 'm', ...extra } });

describe('harness client checks every response', () => {
  it('accepts a conforming answer', async () => {
    answer = { status: 200, body: { id: 'ctype_x', name: 'x', owner: 'o', enabled: true } };
    assert.equal((await getType()).status, 200);
  });

  it('fails a success body that violates the operation schema, against the case clause', async () => {
    answer = { status: 200, body: { id: 'ctype_x', name: 'x', owner: 'o', enabled: 'yes' } };
    const f = await failureOf(getType());
    assert.equal(f.clause, undefined);
    assert.match(f.message, /violates openapi.yaml/);
    assert.equal(f.exchange?.response?.status, 200);
  });

  it('fails a server error against [error-no-server-error-on-input]', async () => {
    answer = { status: 500, body: error('INTERNAL') };
    assert.equal((await failureOf(getType())).clause, 'error-no-server-error-on-input');
  });

  it('fails an error envelope with the wrong status or shape against [error-body]', async () => {
    answer = { status: 400, body: error('NOT_FOUND') };
    assert.equal((await failureOf(getType())).clause, 'error-body');
    answer = { status: 404, body: { message: 'not found' } };
    assert.equal((await failureOf(getType())).clause, 'error-body');
  });

  it('fails a code outside the catalogue against [error-catalogue-only]', async () => {
    answer = { status: 404, body: error('NO_SUCH_THING') };
    assert.equal((await failureOf(getType())).clause, 'error-catalogue-only');
  });

  it('fails CAPACITY_EXCEEDED without its guidance against [error-capacity-guidance]', async () => {
    const resolve = () =>
      client.as({ roles: ['registry:dispatch'], tenant: 't' }).call('resolveRoute', { body: { action_id: 'a', capability_id: 'c' } });
    answer = { status: 429, body: error('CAPACITY_EXCEEDED', { retry_after_ms: 100, details: { scope: 'tenant' } }) };
    assert.equal((await failureOf(resolve())).clause, 'error-capacity-guidance');
    answer = {
      status: 429,
      body: error('CAPACITY_EXCEEDED', { retry_after_ms: 1500, details: { scope: 'tenant' } }),
      headers: { 'retry-after': '2' },
    };
    assert.equal((await resolve()).status, 429);
  });

  it('fails JSON operations answering another media type against [wire-json]', async () => {
    answer = { status: 200, text: 'ok', headers: { 'content-type': 'text/plain' } };
    assert.equal((await failureOf(getType())).clause, 'wire-json');
  });

  it('fails a status the operation does not document', async () => {
    answer = { status: 418, body: error('CONFLICT') };
    assert.match((await failureOf(getType())).message, /does not document/);
  });

  it('turns STORAGE_UNAVAILABLE and a missing answer into harness errors, never failures', async () => {
    answer = { status: 503, body: error('STORAGE_UNAVAILABLE') };
    await assert.rejects(getType(), (err) => err instanceof HarnessError);
    const { privateJwk } = await generateSigningKeys();
    const tokens = new HarnessTokens(await signingKeyFromJwk(privateJwk), 'a');
    const nowhereTransport = new HttpTransport({ baseUrl: 'http://127.0.0.1:1', credentials: tokens.credentials, timeoutMs: 500 });
    try {
      const nowhere = new RegistryClient({ transport: nowhereTransport });
      await assert.rejects(nowhere.call('getHealth'), (err) => err instanceof HarnessError && !ConformanceFailure.is(err));
    } finally {
      await nowhereTransport.close();
    }
  });

  it('fails STORAGE_UNAVAILABLE to a request refused before any state is read against [auth-before-state]', async () => {
    answer = { status: 503, body: error('STORAGE_UNAVAILABLE') };
    const noToken = client.as(null).call('getConnectorType', { params: { type_id: 'ctype_x' }, refusedBeforeStorage: 'auth-before-state' });
    assert.equal((await failureOf(noToken)).clause, 'auth-before-state');
  });

  it('fails STORAGE_UNAVAILABLE to malformed input while /ready says ready, and errors while it does not', async () => {
    const malformed = () =>
      client.as({ roles: ['registry:admin'] }).call('putConnectorType', {
        params: { type_id: 'ctype_x' },
        rawBody: '{"id":',
        refusedBeforeStorage: 'error-no-server-error-on-input',
      });
    try {
      answer = { status: 503, body: error('STORAGE_UNAVAILABLE') };
      readyAnswer = { status: 200, body: { status: 'ready' } };
      assert.equal((await failureOf(malformed())).clause, 'error-no-server-error-on-input');
      readyAnswer = { status: 503, body: { status: 'not_ready' } };
      await assert.rejects(malformed(), (err) => err instanceof HarnessError);
    } finally {
      readyAnswer = undefined;
    }
  });

  it("accepts GET /ready's documented 503 not_ready, and checks its body against the ReadyStatus schema", async () => {
    answer = { status: 503, body: { status: 'not_ready' } };
    assert.equal((await client.as(null).call('getReady')).status, 503);
    answer = { status: 503, body: { status: 'sleeping' } };
    assert.match((await failureOf(client.as(null).call('getReady'))).message, /violates openapi.yaml/);
    answer = { status: 503, body: error('STORAGE_UNAVAILABLE') };
    assert.match((await failureOf(client.as(null).call('getReady'))).message, /violates openapi.yaml/);
    answer = { status: 500, body: error('INTERNAL') };
    assert.equal((await failureOf(client.as(null).call('getReady'))).clause, 'error-no-server-error-on-input');
  });

  it('records exchanges with the caller named and the token redacted', async () => {
    answer = { status: 200, body: { id: 'ctype_x', name: 'x', owner: 'o', enabled: true } };
    await client.as({ roles: ['registry:reader'], tenant: 'tenant-7' }).call('getConnectorType', { params: { type_id: 'ctype_x' } });
    const e = recorded.at(-1)!;
    assert.ok(lastAuthorization?.startsWith('Bearer ey'));
    assert.equal(e.request.headers['authorization'], 'Bearer [redacted]');
    assert.deepEqual(e.request.caller, { roles: ['registry:reader'], tenant: 'tenant-7' });
    assert.ok(!JSON.stringify(e).includes(lastAuthorization!.slice(7)), 'the token appears nowhere in the exchange');
  });
});
