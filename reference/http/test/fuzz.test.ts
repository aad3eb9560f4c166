// Generated bad input at every operation ([error-no-server-error-on-input],
// [error-changes-nothing]): unusable tokens, missing roles, bodies that break
// their schema or are not JSON, path segments and query values that name
// nothing, arbitrary methods and paths. Every response must be the refusal the
// contract names (never 5xx) and the store must read exactly as before.
// Replay a run with FC_SEED (and FC_PATH); FC_RUNS sets runs per property.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { SignJWT, base64url } from 'jose';
import { operations } from '../../../contract/openapi.ts';
import { compileSchema, componentValidator } from '../../../contract/schemas.ts';
import { generateSigningKeys, signingKeyFromJwk } from '../../../contract/tokens.ts';
import { mintToken } from '../../../client/token-minter.ts';
import { badSegment, catalogQuery, garbageAuthorization, malformedJson, mutate, mutation } from './fuzz-arbitraries.ts';
import { buildFuzzWorld, FUZZ_TENANT, snapshot, type FuzzWorld, type ValidRequest } from './fuzz-world.ts';
import { ALL_ROLES, expectError, expectOk, TestRegistry, type Response } from './support.ts';

/** The smallest legal body limit ([limits-declared]), so fuzzed bodies reach it. */
const MAX_BODY_BYTES = 64 * 1024;
const seed = process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : Date.now() % 2_147_483_647;
const runs = Number(process.env['FC_RUNS'] ?? 200);
console.log(`http fuzz: FC_SEED=${seed} FC_RUNS=${runs}`);
const fcParams = (): fc.Parameters<unknown> => ({
  seed,
  numRuns: runs,
  ...(process.env['FC_PATH'] ? { path: process.env['FC_PATH'] } : {}),
});

const entries = new Map(operations().map((e) => [e.operation.operationId, e]));
const bodyValidator = (operationId: string) =>
  compileSchema(entries.get(operationId)!.operation.requestBody!.content['application/json']!.schema);
const batchItemValid = componentValidator('BatchItem');

describe('HTTP fuzz', () => {
  let api: TestRegistry;
  let world: FuzzWorld;
  let baseline: unknown;
  let everything: string;
  let badTokens: string[];
  const unexpected: string[] = [];

  before(async () => {
    api = await TestRegistry.start({ maxBodyBytes: MAX_BODY_BYTES, log: (message, err) => unexpected.push(`${message}: ${String(err)}`) });
    world = await buildFuzzWorld(api);
    baseline = await snapshot(api, world);
    everything = await api.token(ALL_ROLES, FUZZ_TENANT);
    badTokens = await unusableTokens(api);
  });
  after(() => api.close());

  const requests = () => [...world.requests.values()];
  const send = (r: ValidRequest, over: Partial<Parameters<TestRegistry['call']>[1]> = {}) =>
    api.call(r.operationId, {
      params: r.params,
      ...(r.query ? { query: r.query } : {}),
      ...(r.body !== undefined ? { body: r.body } : {}),
      token: everything,
      ...over,
    });
  const expectUnchanged = async () => assert.deepEqual(await snapshot(api, world), baseline, 'a refused request changed state');

  it('[auth-before-state] requests with unusable tokens are UNAUTHENTICATED and change nothing', async () => {
    const protectedRequests = requests();
    const authorization = fc.oneof(
      fc.constantFrom(...badTokens).map((t) => `Bearer ${t}`),
      garbageAuthorization,
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...protectedRequests), authorization, async (r, header) => {
        const res = await send(r, header === null ? { token: null } : { token: null, headers: { authorization: header } });
        expectError(res, 401, 'UNAUTHENTICATED');
        await expectUnchanged();
      }),
      fcParams(),
    );
  });

  it('[auth-roles] requests lacking their role are FORBIDDEN and change nothing', async () => {
    const named = requests().filter((r) => r.roles.length > 0);
    const arb = fc
      .constantFrom(...named)
      .chain((r) => fc.tuple(fc.constant(r), fc.subarray(ALL_ROLES.filter((role) => !r.roles.includes(role)))));
    await fc.assert(
      fc.asyncProperty(arb, async ([r, roles]) => {
        expectError(await send(r, { token: await api.token(roles, FUZZ_TENANT) }), 403, 'FORBIDDEN');
        await expectUnchanged();
      }),
      fcParams(),
    );
  });

  it('[wire-closed-records] bodies that break their schema are INVALID_REQUEST or PAYLOAD_TOO_LARGE and change nothing', async () => {
    const withBody = requests().filter((r) => r.body !== undefined);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withBody), mutation, async (r, m) => {
        const body = mutate(r.body, m);
        const text = JSON.stringify(body) ?? 'null';
        const envelopeValid = bodyValidator(r.operationId)(body);
        const itemsAllInvalid =
          r.operationId === 'applyBatch' && envelopeValid && (body as { items: unknown[] }).items.every((i) => !batchItemValid(i));
        fc.pre(!envelopeValid || itemsAllInvalid);
        const res = await send(r, { body: text });
        if (Buffer.byteLength(text) > MAX_BODY_BYTES) expectError(res, 413, 'PAYLOAD_TOO_LARGE');
        else if (itemsAllInvalid) assert.ok(expectOk(res).results.every((x: { outcome: string }) => x.outcome === 'rejected'));
        else expectError(res, 400, 'INVALID_REQUEST');
        await expectUnchanged();
      }),
      fcParams(),
    );
  });

  it('[wire-malformed-json] bodies that are not JSON are INVALID_REQUEST and change nothing', async () => {
    const withBody = requests().filter((r) => r.body !== undefined);
    const arb = fc.constantFrom(...withBody).chain((r) => fc.tuple(fc.constant(r), malformedJson(JSON.stringify(r.body))));
    await fc.assert(
      fc.asyncProperty(arb, async ([r, text]) => {
        expectError(await send(r, { body: text }), 400, 'INVALID_REQUEST');
        await expectUnchanged();
      }),
      fcParams(),
    );
  });

  it('[wire-closed-records] path parameters that name nothing valid are refused and change nothing', async () => {
    const withParams = requests().filter((r) => Object.keys(r.params).length > 0);
    const arb = fc
      .constantFrom(...withParams)
      .chain((r) => fc.tuple(fc.constant(r), fc.constantFrom(...Object.keys(r.params)), badSegment));
    await fc.assert(
      fc.asyncProperty(arb, async ([r, name, segment]) => {
        const encodedParams = Object.fromEntries(
          Object.entries(r.params).map(([k, v]) => [k, k === name ? segment : encodeURIComponent(v)]),
        );
        fc.pre(decodeURIComponentSafe(segment) !== r.params[name]);
        // A client resolves dot segments before sending, so they would address another path entirely.
        fc.pre(!/^(\.|%2e){1,2}$/i.test(segment));
        const res = await send(r, { encodedParams });
        // A read may find a well-formed key it was never told about: a counter reads as 0.
        const allowed = entries.get(r.operationId)!.method === 'get' ? [200, 400, 404] : [400, 404];
        assert.ok(allowed.includes(res.status), `${r.operationId} ${name}=${segment}: ${res.status} ${res.text.slice(0, 300)}`);
        await expectUnchanged();
      }),
      fcParams(),
    );
  });

  it('[page-invalid-cursor] catalog queries with wrong values and cursors never fail the server and change nothing', async () => {
    const revision = await api.store.catalogRevision();
    const tokens = [everything, await api.token(['registry:internal']), await api.token(['registry:reader'])];
    await fc.assert(
      fc.asyncProperty(catalogQuery(revision), fc.constantFrom(...tokens), async (query, token) => {
        const res = await api.call('queryCatalog', { query, token });
        assert.ok([200, 400, 403, 409].includes(res.status), `${JSON.stringify(query)}: ${res.status} ${res.text.slice(0, 300)}`);
        await expectUnchanged();
      }),
      fcParams(),
    );
  });

  it('[wire-unknown-route] arbitrary methods, paths and bodies never fail the server and change nothing', async () => {
    const templates = operations().map((e) => e.path);
    const path = fc.oneof(
      fc.tuple(fc.constantFrom(...templates), badSegment).map(([t, s]) => t.replace(/\{[a-z_]+\}/g, s)),
      fc.array(badSegment, { minLength: 0, maxLength: 5 }).map((parts) => '/' + parts.join('/')),
      fc.constantFrom('/v1', '/v1/', '//health', '/health?x=%zz', '/v1/catalog?limit=1&limit=2', '/v1/routes/%2e%2e/settlement'),
    );
    const method = fc.constantFrom('GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS');
    const body = fc.option(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
      ),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(method, path, body, fc.boolean(), async (m, p, b, authorised) => {
        const headers: Record<string, string> = b === undefined ? {} : { 'content-type': 'application/json' };
        if (authorised) headers['authorization'] = `Bearer ${everything}`;
        const res: Response = await api.raw(m, p, { headers, ...(b === undefined ? {} : { body: b }) });
        assert.ok(res.status < 500, `${m} ${p}: ${res.status} ${res.text.slice(0, 300)}`);
        if (res.status < 300) assert.equal(m, 'GET', `${m} ${p} was accepted`);
        await expectUnchanged();
      }),
      fcParams(),
    );
  });

  it('[error-no-server-error-on-input] nothing failed unexpectedly and the server still answers', async () => {
    assert.deepEqual(unexpected, []);
    expectOk(await api.call('getHealth', { token: null }));
    await expectUnchanged();
  });

  it('[error-changes-nothing] control: the snapshot sees every valid write when it is accepted', async () => {
    for (const r of requests().filter((q) => q.body !== undefined)) {
      const fresh = await TestRegistry.start();
      try {
        const w = await buildFuzzWorld(fresh);
        const before = await snapshot(fresh, w);
        const token = await fresh.token(r.roles, FUZZ_TENANT);
        expectOk(await fresh.call(r.operationId, { params: r.params, body: w.requests.get(r.operationId)!.body, token }));
        assert.notDeepEqual(await snapshot(fresh, w), before, `${r.operationId} changed nothing the snapshot reads`);
      } finally {
        await fresh.close();
      }
    }
  });
});

function decodeURIComponentSafe(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** Tokens with every role and the fuzz tenant, each broken in exactly one way. */
async function unusableTokens(api: TestRegistry): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const claims = { scope: ALL_ROLES.join(' '), tenant_id: FUZZ_TENANT };
  const stranger = await signingKeyFromJwk((await generateSigningKeys()).privateJwk);
  const good = await mintToken({ key: api.key, roles: ALL_ROLES, tenant: FUZZ_TENANT });
  const [header, , signature] = good.split('.');
  const forged = base64url.encode(JSON.stringify({ ...claims, aud: 'fleetproof-registry', exp: now + 600, tenant_id: 'tenant-other' }));
  const sign = (jwt: SignJWT) => jwt.setProtectedHeader({ alg: 'EdDSA', kid: api.key.kid }).sign(api.key.key);
  return [
    await mintToken({ key: api.key, roles: ALL_ROLES, tenant: FUZZ_TENANT, now: now - 7200, ttlSeconds: 60 }),
    await mintToken({ key: api.key, roles: ALL_ROLES, tenant: FUZZ_TENANT, audience: 'someone-else' }),
    await mintToken({ key: stranger, roles: ALL_ROLES, tenant: FUZZ_TENANT }),
    await mintToken({ key: { ...stranger, kid: api.key.kid }, roles: ALL_ROLES, tenant: FUZZ_TENANT }),
    `${header}.${forged}.${signature}`,
    `${base64url.encode('{"alg":"none"}')}.${forged}.`,
    await sign(new SignJWT(claims).setAudience('fleetproof-registry')),
    await sign(
      new SignJWT(claims)
        .setAudience('fleetproof-registry')
        .setExpirationTime(now + 600)
        .setNotBefore(now + 600),
    ),
    good.slice(0, -4),
    good + 'x',
  ];
}
