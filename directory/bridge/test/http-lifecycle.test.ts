// The HTTP lifecycle adapter against the reference server: the same answers
// as the store adapter, errors as RegistryErrors with catalogue codes.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../../contract/tokens.ts';
import { mintToken } from '../../../client/token-minter.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import { createRegistryServer, type RegistryServer } from '../../../reference/http/server.ts';
import { b, HOUR } from '../../../reference/store/test/behaviour/world.ts';
import { HttpLifecyclePort } from '../http-lifecycle.ts';
import { BRIDGE_ROLES, lifecycleTokenSource } from '../registry-token.ts';
import { bridgeWorld, type BridgeWorld } from './support.ts';

let w: BridgeWorld;
let server: RegistryServer;
let url: string;
let key: SigningKey;
const ports: HttpLifecyclePort[] = [];

before(async () => {
  w = await bridgeWorld('http');
  const { privateJwk, jwks } = await generateSigningKeys();
  key = await signingKeyFromJwk(privateJwk);
  server = createRegistryServer({ store: w.store, jwks, log: () => {} });
  url = await server.listen(0, '127.0.0.1');
});
after(async () => {
  for (const p of ports) await p.close();
  await server.close();
});

function port(token: () => Promise<string> = lifecycleTokenSource(key)): HttpLifecyclePort {
  const p = new HttpLifecyclePort({ baseUrl: `${url}/`, token });
  ports.push(p);
  return p;
}

test('provision, report and read a replica over HTTP', async () => {
  const api = port();
  const record = b.replica('crepl_http_1', w.fleet.instance.id, w.fleet.version.id, w.clock.now() + HOUR);
  const provisioned = await api.provisionReplica(record);
  assert.equal(provisioned.outcome, 'applied');
  assert.equal((await api.provisionReplica(record)).outcome, 'unchanged');
  const reported = await api.reportHealth(record.id, b.health(2, w.clock.now() + HOUR, { status: 'draining' }));
  assert.equal(reported.record.status, 'draining');
  const read = (await api.getReplica(record.id))!;
  assert.equal(read.health_revision, 2);
  assert.equal(read.active_assignments, 0);
  assert.deepEqual(read, (await w.store.getReplica(record.id))!);
  assert.equal(await api.getReplica('crepl_http_absent'), null);
});

test('error answers become RegistryErrors with their catalogue code', async () => {
  const api = port();
  const record = b.replica('crepl_http_2', w.fleet.instance.id, w.fleet.version.id, w.clock.now() + HOUR);
  await api.provisionReplica(record);
  const code = (c: string) => (e: unknown) => RegistryError.is(e) && e.code === c;
  await assert.rejects(api.reportHealth(record.id, b.health(1, w.clock.now(), { status: 'offline' })), code('CONFLICT'));
  await assert.rejects(api.provisionReplica({ ...record, capacity: 3 }), code('CONFLICT'));
  await assert.rejects(api.reportHealth('crepl_http_absent', b.health(2, w.clock.now())), code('NOT_FOUND'));
  await assert.rejects(api.provisionReplica({ ...record, id: 'crepl_http_3', instance_id: 'cinst_absent' }), code('NOT_FOUND'));
  const readerOnly = port(() => mintToken({ key, roles: ['registry:reader'] }));
  await assert.rejects(readerOnly.reportHealth(record.id, b.health(5, w.clock.now())), code('FORBIDDEN'));
  const stranger = port(async () => 'not-a-token');
  await assert.rejects(stranger.getReplica(record.id), code('UNAUTHENTICATED'));
});

test('an answer outside the contract is an ordinary error', async () => {
  const odd = createServer((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>bad gateway</h1>'));
  await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
  try {
    const api = new HttpLifecyclePort({ baseUrl: `http://127.0.0.1:${(odd.address() as AddressInfo).port}`, token: async () => 't' });
    ports.push(api);
    await assert.rejects(api.getReplica('crepl_x'), (e) => e instanceof Error && !RegistryError.is(e));
  } finally {
    odd.closeAllConnections();
    await new Promise((resolve) => odd.close(resolve));
  }
  assert.throws(() => new HttpLifecyclePort({ baseUrl: 'ftp://registry', token: async () => 't' }));
});

test('the token source mints the two bridge roles once and again before expiry', async () => {
  let now = Date.parse('2026-11-30T12:00:00.000Z');
  const source = lifecycleTokenSource(key, { ttlSeconds: 100, now: () => now });
  const first = await source();
  const claims = JSON.parse(Buffer.from(first.split('.')[1]!, 'base64url').toString());
  assert.equal(claims.scope, BRIDGE_ROLES.join(' '));
  assert.equal(claims.exp - claims.iat, 100);
  assert.equal(claims.tenant_id, undefined, 'lifecycle tokens carry no tenant');
  now += 79_000;
  assert.equal(await source(), first);
  now += 2_000;
  assert.notEqual(await source(), first, 're-minted after four fifths of the lifetime');
});
