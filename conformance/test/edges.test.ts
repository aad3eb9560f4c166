// Rules judged on both sides of their edge. A registry a little past the
// edge fails the case that probes it (a token leeway of 45 s where the
// contract allows 30, a media type check blind to the charset), and the same
// registry at the edge itself passes.
import assert from 'node:assert/strict';
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { ReferenceChoices } from '../../reference/domain/choices.ts';
import { generateSigningKeys, signingKeyFromJwk } from '../../contract/tokens.ts';
import { createRegistryServer } from '../../reference/http/server.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { resolveConfig, type ConformConfig } from '../runner/config.ts';
import { runConformance } from '../runner/run.ts';

/**
 * The reference with these HTTP choices and its token clock `skewMs` off (30 s of leeway and a clock 15 s
 * behind is 45 s of leeway on exp), optionally behind a proxy that rewrites each request's Content-Type.
 */
async function statuses(cases: string[], choices: Partial<ReferenceChoices>, contentType?: (t: string) => string, skewMs = 0) {
  const { privateJwk, jwks } = await generateSigningKeys();
  const store = new MemoryStore();
  const server = createRegistryServer({ store, jwks, choices, now: () => Date.now() + skewMs, log: () => {} });
  let url = await server.listen(0, '127.0.0.1');
  const upstream = new URL(url);
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const headers = { ...req.headers };
    if (contentType && typeof headers['content-type'] === 'string') headers['content-type'] = contentType(headers['content-type']);
    const out = forward({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  try {
    if (contentType) {
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    }
    const config: ConformConfig = { ...resolveConfig({ target: url, keyFile: '(in memory)' }), cases, categories: [] };
    const outcome = await runConformance({ config, signingKey: await signingKeyFromJwk(privateJwk), writeReports: false });
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
});

describe('[wire-json] charsets on both sides', () => {
  const CHARSET = ['wire/other-charsets-are-unsupported-media-type', 'wire/utf-8-charset-in-any-spelling-is-accepted'];
  it('the reference passes both cases', async () => {
    expectAll(await statuses(CHARSET, {}), 'pass');
  });
  it('a registry blind to the charset parameter fails the refusal', async () => {
    const got = await statuses([CHARSET[0]!], {}, (t) => t.replace(/;\s*charset=.*$/i, ''));
    expectAll(got, 'fail');
  });
  it('a registry that takes only the exact spelling application/json fails the acceptance', async () => {
    const got = await statuses([CHARSET[1]!], {}, (t) => (t === 'application/json' ? t : 'text/plain'));
    expectAll(got, 'fail');
  });
});
