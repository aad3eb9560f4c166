// Every way a token can fail (spec.md [auth-bearer], [auth-signature],
// [auth-time], [auth-audience]), each against an operation the token's roles
// would otherwise allow, and the verified-token cache.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT, base64url } from 'jose';
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../../contract/tokens.ts';
import { mintToken } from '../../../client/token-minter.ts';
import { TokenVerifier } from '../authenticate.ts';
import { expectError, expectOk, TestRegistry } from './support.ts';

const OPERATOR = 'registry:operator';
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function otherKey(): Promise<SigningKey> {
  return signingKeyFromJwk((await generateSigningKeys()).privateJwk);
}

describe('authentication', () => {
  let api: TestRegistry;
  before(async () => {
    api = await TestRegistry.start();
  });
  after(() => api.close());

  const withAuthorization = (authorization: string | null) =>
    api.call('getFleetStatus', authorization === null ? { token: null } : { token: null, headers: { authorization } });
  const withToken = (token: string) => withAuthorization(`Bearer ${token}`);
  /** A token signed by the trusted key with claims chosen by the test. */
  const signed = (claims: Record<string, unknown>, build: (jwt: SignJWT) => SignJWT = (jwt) => jwt) =>
    build(new SignJWT({ scope: OPERATOR, ...claims }).setProtectedHeader({ alg: 'EdDSA', kid: api.key.kid })).sign(api.key.key);

  it('[auth-bearer] a valid token passes; a missing header, another scheme or a non-JWS token is UNAUTHENTICATED', async () => {
    expectOk(await withToken(await api.token([OPERATOR])));
    for (const header of [
      null,
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer ',
      'Bearer not-a-jwt',
      'Bearer a.b',
      'Bearer a.b.c',
      'Token abc.def.ghi',
    ]) {
      expectError(await withAuthorization(header), 401, 'UNAUTHENTICATED');
    }
  });

  it('[auth-signature] another key, an unknown key id, a tampered payload, alg none and HS256 are UNAUTHENTICATED', async () => {
    const stranger = await otherKey();
    expectError(await withToken(await mintToken({ key: stranger, roles: [OPERATOR] })), 401, 'UNAUTHENTICATED');
    const impostor = { ...stranger, kid: api.key.kid };
    expectError(await withToken(await mintToken({ key: impostor, roles: [OPERATOR] })), 401, 'UNAUTHENTICATED');
    const [header, , signature] = (await api.token(['registry:reader'])).split('.');
    const forgedPayload = base64url.encode(JSON.stringify({ scope: OPERATOR, aud: 'fleetproof-registry', exp: nowSeconds() + 600 }));
    expectError(await withToken(`${header}.${forgedPayload}.${signature}`), 401, 'UNAUTHENTICATED');
    const none = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    expectError(await withToken(`${none}.${forgedPayload}.`), 401, 'UNAUTHENTICATED');
    const hs = await new SignJWT({ scope: OPERATOR })
      .setProtectedHeader({ alg: 'HS256', kid: api.key.kid })
      .setAudience('fleetproof-registry')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(api.key.jwk.x!));
    expectError(await withToken(hs), 401, 'UNAUTHENTICATED');
  });

  it('[auth-time] no exp, a past exp and an nbf beyond 30 s of skew are UNAUTHENTICATED; a small skew is accepted', async () => {
    const now = nowSeconds();
    const aud = 'fleetproof-registry';
    expectError(await withToken(await signed({ aud })), 401, 'UNAUTHENTICATED');
    expectError(
      await withToken(await mintToken({ key: api.key, roles: [OPERATOR], now: now - 120, ttlSeconds: 60 })),
      401,
      'UNAUTHENTICATED',
    );
    expectError(await withToken(await signed({ aud, exp: now - 1 })), 401, 'UNAUTHENTICATED');
    expectError(await withToken(await signed({ aud, exp: now + 600, nbf: now + 90 })), 401, 'UNAUTHENTICATED');
    expectOk(await withToken(await signed({ aud, exp: now + 600, nbf: now + 10 })));
  });

  it('[auth-audience] a token for another audience, or for none, is UNAUTHENTICATED', async () => {
    expectError(await withToken(await mintToken({ key: api.key, roles: [OPERATOR], audience: 'another-service' })), 401, 'UNAUTHENTICATED');
    expectError(await withToken(await signed({ exp: nowSeconds() + 600 })), 401, 'UNAUTHENTICATED');
    expectOk(await withToken(await signed({ exp: nowSeconds() + 600, aud: ['another-service', 'fleetproof-registry'] })));
  });

  it('[auth-tenant-from-token] malformed scope or tenant_id claims are UNAUTHENTICATED, not a guess', async () => {
    const base = { aud: 'fleetproof-registry', exp: nowSeconds() + 600 };
    expectError(await withToken(await signed({ ...base, scope: [OPERATOR] })), 401, 'UNAUTHENTICATED');
    expectError(await withToken(await signed({ ...base, tenant_id: 42 })), 401, 'UNAUTHENTICATED');
    expectError(await withToken(await signed({ ...base, tenant_id: 'tenant with spaces' })), 401, 'UNAUTHENTICATED');
    expectOk(await withToken(await signed({ ...base, tenant_id: 'tenant-fine' })));
  });

  it('[auth-time] a cached token is refused once it expires, and the cache stays within its bound', async () => {
    let nowMs = Date.now();
    const verifier = new TokenVerifier({ jwks: api.jwks, now: () => nowMs, cacheSize: 2 });
    const short = await mintToken({ key: api.key, roles: [OPERATOR], ttlSeconds: 5 });
    assert.ok((await verifier.authenticate(`Bearer ${short}`)).roles.has(OPERATOR));
    assert.equal(verifier.cachedTokens, 1);
    nowMs += 6_000;
    await assert.rejects(verifier.authenticate(`Bearer ${short}`), { code: 'UNAUTHENTICATED' });
    for (const tenant of ['t1', 't2', 't3']) {
      const principal = await verifier.authenticate(`Bearer ${await mintToken({ key: api.key, roles: [], tenant })}`);
      assert.equal(principal.tenantId, tenant);
    }
    assert.equal(verifier.cachedTokens, 2);
  });

  it('[auth-time] a token repeated on one connection is checked against exp and nbf at every request', async () => {
    const issuedMs = Date.now();
    let nowMs = issuedMs;
    const verifier = new TokenVerifier({
      jwks: api.jwks,
      now: () => nowMs,
      choices: { expLeewaySeconds: 5, nbfLeewaySeconds: 10, badClaimType: 'UNAUTHENTICATED' },
    });
    const nbf = Math.floor(issuedMs / 1000) - 5;
    const token = await signed({ aud: 'fleetproof-registry', nbf, exp: nbf + 65 });
    const header = `Bearer ${token}`;
    const connection = {};
    assert.ok(await verifier.authenticate(header));
    for (let i = 0; i < 3; i++) assert.ok(verifier.cachedPrincipal(header, connection)?.roles.has(OPERATOR));
    // A clock set back before nbf less its leeway: refused, though the token is cached and the connection knows it.
    nowMs = (nbf - 11) * 1000;
    assert.throws(() => verifier.cachedPrincipal(header, connection), { code: 'UNAUTHENTICATED' });
    nowMs = (nbf - 10) * 1000;
    assert.ok(verifier.cachedPrincipal(header, connection));
    // exp with its leeway: the last millisecond is accepted, the next refused, on the connection and off it.
    nowMs = (nbf + 65 + 5) * 1000 - 1;
    assert.ok(verifier.cachedPrincipal(header, connection));
    nowMs += 1;
    assert.throws(() => verifier.cachedPrincipal(header, connection), { code: 'UNAUTHENTICATED' });
    assert.equal(verifier.cachedPrincipal(header, {}), null, 'the expired token left the cache; a fresh look verifies it again');
    await assert.rejects(verifier.authenticate(header), { code: 'UNAUTHENTICATED' });
  });

  it('[auth-signature] a connection that changes its token is judged by the new one; an evicted token is not put back past the bound', async () => {
    const verifier = new TokenVerifier({ jwks: api.jwks, cacheSize: 2 });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((tenant) => mintToken({ key: api.key, roles: [], tenant })));
    const connection = {};
    await verifier.authenticate(`Bearer ${a}`);
    assert.equal(verifier.cachedPrincipal(`Bearer ${a}`, connection)?.tenantId, 'a');
    await verifier.authenticate(`Bearer ${b}`);
    assert.equal(verifier.cachedPrincipal(`Bearer ${b}`, connection)?.tenantId, 'b');
    assert.equal(verifier.cachedPrincipal(`Bearer ${c}`, connection), null, 'an unverified token is never taken from the connection');
    await verifier.authenticate(`Bearer ${c}`);
    for (let i = 0; i < 5; i++) assert.equal(verifier.cachedPrincipal(`Bearer ${b}`, connection)?.tenantId, 'b');
    assert.ok(verifier.cachedTokens <= 2);
  });

  it('[auth-signature] the cache evicts the least recently used token, not one in steady use', async () => {
    const verifier = new TokenVerifier({ jwks: api.jwks, cacheSize: 4 });
    const mint = (tenant: string) => mintToken({ key: api.key, roles: [], tenant });
    const [a, b, c, d, e, f, g] = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(mint));
    for (const t of [a, b, c, d]) await verifier.authenticate(`Bearer ${t}`);
    for (const t of [e, f, g]) {
      await verifier.authenticate(`Bearer ${a}`);
      await verifier.authenticate(`Bearer ${t}`);
    }
    assert.equal(verifier.cachedTokens, 4);
    assert.deepEqual(
      [a, b, c, d, e, f, g].map((t) => verifier.holds(t!)),
      [true, false, false, false, true, true, true],
    );
  });
});
