// Rules judged on both sides of their edge. A registry a little past the
// edge fails the case that probes it (a token leeway of 45 s where the
// contract allows 30, a media type check blind to the charset), and the same
// registry at the edge itself passes.
import assert from 'node:assert/strict';
import { decodeJwt, SignJWT } from 'jose';
import { createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ReferenceChoices } from '../../reference/domain/choices.ts';
import { generateSigningKeys, signingKeyFromJwk, TOKEN_ALGORITHM, type SigningKey } from '../../contract/tokens.ts';
import { createRegistryServer } from '../../reference/http/server.ts';
import { storageUnavailable } from '../../contract/registry-error.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { resolveConfig, type ConformConfig } from '../runner/config.ts';
import { runConformance } from '../runner/run.ts';

/** A proxy's view of each exchange: it may rewrite the request's headers and hears each answer's status. */
interface Front {
  request(headers: IncomingHttpHeaders): Promise<IncomingHttpHeaders>;
  answered?(headers: IncomingHttpHeaders, status: number): void;
}

/** A front rewriting each request's Content-Type. */
const contentTypes = (rewrite: (t: string) => string): Front => ({
  request: async (h) => (typeof h['content-type'] === 'string' ? { ...h, 'content-type': rewrite(h['content-type']) } : h),
});

/**
 * A registry caching verified tokens and ignoring exp on a hit: a token once answered other than 401 is
 * replaced by a fresh one with the same claims, signed with the registry's key.
 */
const cachingTokens = (key: SigningKey): Front => {
  const verified = new Set<string>();
  return {
    async request(h) {
      if (!h.authorization || !verified.has(h.authorization)) return h;
      const claims = decodeJwt(h.authorization.replace(/^Bearer /, ''));
      const fresh = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) + 3600 })
        .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: key.kid, typ: 'JWT' })
        .sign(key.key);
      return { ...h, authorization: `Bearer ${fresh}` };
    },
    answered: (h, status) => void (status !== 401 && h.authorization && verified.add(h.authorization)),
  };
};

/**
 * The reference with these HTTP choices and its token clock `skewMs` off (30 s of leeway and a clock 15 s
 * behind is 45 s of leeway on exp), optionally behind a front given the registry's signing key.
 */
async function statuses(
  cases: string[],
  choices: Partial<ReferenceChoices>,
  front?: (key: SigningKey) => Front,
  skewMs = 0,
  store = new MemoryStore(),
) {
  const { privateJwk, jwks } = await generateSigningKeys();
  const key = await signingKeyFromJwk(privateJwk);
  const server = createRegistryServer({ store, jwks, choices, now: () => Date.now() + skewMs, log: () => {} });
  let url = await server.listen(0, '127.0.0.1');
  const upstream = new URL(url);
  const seen = front?.(key);
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    void seen!.request(req.headers).then((headers) => {
      const out = forward({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        seen!.answered?.(req.headers, answer.statusCode ?? 502);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      req.pipe(out);
    });
  });
  try {
    if (seen) {
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    }
    const config: ConformConfig = { ...resolveConfig({ target: url, keyFile: '(in memory)' }), cases, categories: [] };
    const outcome = await runConformance({ config, signingKey: key, writeReports: false });
    assert.ok(outcome.result, outcome.error);
    return Object.fromEntries(outcome.result.cases.map((c) => [c.id, c.status === 'pass' ? 'pass' : `${c.status}: ${c.message}`]));
  } finally {
    if (proxy.listening) await new Promise((resolve) => proxy.close(resolve));
    await server.close();
    await store.close();
  }
}

const expectAll = (got: Record<string, string>, status: 'pass' | 'fail') =>
  assert.deepEqual(
    Object.values(got).map((s) => s.split(':')[0]),
    Object.keys(got).map(() => status),
    JSON.stringify(got),
  );

/** A request whose token is not yet valid reaches the registry 4 s late: by then its nbf is at most 29 s ahead. */
const lateWhileNotYetValid: Front = {
  request: async (h) => {
    const token = h.authorization?.replace(/^Bearer /, '');
    if (token && decodeJwt(token).nbf! * 1000 > Date.now()) await sleep(4_000);
    return h;
  },
};

describe('[auth-time] on both sides of the 30 s of leeway', () => {
  const EXPIRED = ['auth-and-isolation/expired-token-is-unauthenticated'];
  const NOT_YET = ['auth-and-isolation/not-yet-valid-token-is-unauthenticated'];
  it('30 s of leeway on exp and on nbf, the most the contract allows, passes', async () => {
    expectAll(await statuses([...EXPIRED, ...NOT_YET], { expLeewaySeconds: 30, nbfLeewaySeconds: 30 }), 'pass');
  });
  it('45 s of leeway on exp fails', async () => {
    expectAll(await statuses(EXPIRED, { expLeewaySeconds: 30 }, undefined, -15_000), 'fail');
  });
  it('45 s of leeway on nbf fails', async () => {
    expectAll(await statuses(NOT_YET, { nbfLeewaySeconds: 30 }, undefined, 15_000), 'fail');
  });
  it('a registry too slow to handle a token before its nbf comes within 30 s cannot be judged, never fails', async () => {
    const got = await statuses(NOT_YET, { nbfLeewaySeconds: 30 }, () => lateWhileNotYetValid);
    assert.match(Object.values(got)[0]!, /^error: .*too slow to judge/, JSON.stringify(got));
  });
  it('nor does its storage failing once such a late token is accepted', async () => {
    const failing = new (class extends MemoryStore {
      override getReplica(): never {
        throw storageUnavailable('storage down for this test');
      }
    })();
    const got = await statuses(NOT_YET, { nbfLeewaySeconds: 30 }, () => lateWhileNotYetValid, 0, failing);
    assert.match(Object.values(got)[0]!, /^error: .*too slow to judge/, JSON.stringify(got));
  });
});

describe('[wire-json] charsets on both sides', () => {
  const CHARSET = ['wire/other-charsets-are-unsupported-media-type', 'wire/utf-8-charset-in-any-spelling-is-accepted'];
  it('the reference passes both cases', async () => {
    expectAll(await statuses(CHARSET, {}), 'pass');
  });
  it('a registry blind to the charset parameter fails the refusal', async () => {
    const got = await statuses([CHARSET[0]!], {}, () => contentTypes((t) => t.replace(/;\s*charset=.*$/i, '')));
    expectAll(got, 'fail');
  });
  it('a registry that takes only the exact spelling application/json fails the acceptance', async () => {
    const got = await statuses([CHARSET[1]!], {}, () => contentTypes((t) => (t === 'application/json' ? t : 'text/plain')));
    expectAll(got, 'fail');
  });
});

// A token used before its exp and again after it waits out half a minute of real time: these run side by side.
describe('[auth-time] inside the edges, and on every use of a token', { concurrency: true }, () => {
  const INSIDE = ['auth-and-isolation/token-valid-for-seconds-more-is-accepted'];
  const REUSED = ['auth-and-isolation/token-used-before-exp-is-refused-after-it'];
  it('no leeway at all, and 30 s of it, pass', async () => {
    const [none, most] = await Promise.all([
      statuses([...INSIDE, ...REUSED], { expLeewaySeconds: 0, nbfLeewaySeconds: 0 }),
      statuses([...INSIDE, ...REUSED], { expLeewaySeconds: 30, nbfLeewaySeconds: 30 }),
    ]);
    expectAll(none, 'pass');
    expectAll(most, 'pass');
  });
  it('a registry refusing tokens that expire within 10 s fails', async () => {
    expectAll(await statuses(INSIDE, { expLeewaySeconds: 0 }, undefined, 10_000), 'fail');
  });
  it('a registry refusing tokens whose nbf passed less than 10 s ago fails', async () => {
    expectAll(await statuses(INSIDE, { nbfLeewaySeconds: 0 }, undefined, -10_000), 'fail');
  });
  it('a registry whose token cache ignores exp fails', async () => {
    expectAll(await statuses(REUSED, { expLeewaySeconds: 30 }, cachingTokens), 'fail');
  });
  it('45 s of leeway on exp fails on a token used while valid too', async () => {
    expectAll(await statuses(REUSED, { expLeewaySeconds: 30 }, undefined, -15_000), 'fail');
  });
});
