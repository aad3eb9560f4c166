// The HTTP adapter's reading of the wire: error bodies become the catalogue's
// codes, a missing record is null, a timeout or a lost connection is
// indeterminate (not a failure), an unreachable target is a harness problem,
// and an answer outside the contract is a violation.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../contract/tokens.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import { IndeterminateOutcome, PropertyViolation } from '../check/violations.ts';
import { TargetUnreachable } from '../targets/http/http-client.ts';
import { HttpRegistryStore } from '../targets/http/http-registry-store.ts';
import { startReferenceServer, type ReferenceServer } from './reference-server.ts';

const VERSION = {
  implementation: { name: 'scripted', version: '0' },
  contract: 'fleetproof-registry/v1',
  limits: { max_page_size: 200 },
  features: [],
};

/** A server that answers GET /version, then whatever `reply` decides for every other request. */
async function scripted(reply: (path: string, res: import('node:http').ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/version') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(VERSION));
      return;
    }
    reply(req.url ?? '', res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('HTTP adapter', () => {
  let key: SigningKey;
  let reference: ReferenceServer;
  const servers: Server[] = [];
  before(async () => {
    key = await signingKeyFromJwk((await generateSigningKeys()).privateJwk);
    reference = await startReferenceServer();
  });
  after(async () => {
    await reference.close();
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });

  it('maps an error body to its catalogue code and an absent record to null', async () => {
    const store = await HttpRegistryStore.open({ url: reference.url, key: reference.key });
    try {
      assert.equal(await store.getReplica('crepl_missing'), null);
      assert.equal(await store.route('tenant-a', 'act-missing'), null);
      await assert.rejects(store.setVersionStatus('cver_missing', 'active'), (err) => RegistryError.is(err) && err.code === 'NOT_FOUND');
      await assert.rejects(store.expireLeases(0), (err) => RegistryError.is(err) && err.code === 'INVALID_REQUEST');
    } finally {
      await store.close();
    }
  });

  it('reports a request that outlives its timeout as indeterminate', async () => {
    const { server, url } = await scripted(() => {}); // never answers
    servers.push(server);
    const store = await HttpRegistryStore.open({ url, key, requestTimeoutMs: 100 });
    try {
      await assert.rejects(store.resolve('tenant-a', { action_id: 'act', capability_id: 'cap' }), (err) => IndeterminateOutcome.is(err));
    } finally {
      await store.close();
    }
  });

  it('reports a connection lost before the answer as indeterminate', async () => {
    const { server, url } = await scripted((_path, res) => res.socket?.destroy());
    servers.push(server);
    const store = await HttpRegistryStore.open({ url, key });
    try {
      await assert.rejects(store.settle('tenant-a', 'act', {} as never, 'completed'), (err) => IndeterminateOutcome.is(err));
    } finally {
      await store.close();
    }
  });

  it('treats an error whose status is not its code’s as a violation of the contract', async () => {
    const { server, url } = await scripted((_path, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'CONFLICT', message: 'x' } })),
    );
    servers.push(server);
    const store = await HttpRegistryStore.open({ url, key });
    try {
      await assert.rejects(
        store.putAdmissionPolicy({ policy_ref: 'pol-x' } as never),
        (err) => PropertyViolation.is(err) && err.property === 'model-agreement',
      );
    } finally {
      await store.close();
    }
  });

  it('refuses to open a target nobody serves', async () => {
    const { server, url } = await scripted(() => {});
    await new Promise((resolve) => server.close(resolve));
    await assert.rejects(HttpRegistryStore.open({ url, key }), (err) => err instanceof TargetUnreachable);
  });
});
