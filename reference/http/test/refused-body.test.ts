// [wire-body-limit]: a body over the limit is answered 413 while the client
// is still sending it; the server reads and discards the rest before the
// connection can close, so every client reads the refusal instead of a
// broken write (EPIPE, a reset). The server runs in its own process: only
// then does a client write while the server answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fetch as undiciFetch } from 'undici';
import { mintToken } from '../../../client/token-minter.ts';
import { startChildRegistry, type ChildRegistry } from './child-registry.ts';

const MAX_BODY_BYTES = 1024 * 1024;
/** Above what loopback sockets buffer, so the client is still writing when the answer comes; within what the server discards. */
const BODY_BYTES = 4 * MAX_BODY_BYTES;
const TRIES = 50;

type Fetch = (url: string, init: RequestInit & { duplex?: 'half' }) => Promise<Response>;

const body = Buffer.alloc(BODY_BYTES, 0x20);
/** Without Content-Length: a stream the client sends chunked. */
function streamed(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < body.length; at += 64 * 1024) controller.enqueue(body.subarray(at, at + 64 * 1024));
      controller.close();
    },
  });
}

describe('refused bodies', () => {
  let registry: ChildRegistry;
  let token: string;
  before(async () => {
    registry = await startChildRegistry(MAX_BODY_BYTES);
    token = await mintToken({ key: registry.key, roles: ['registry:admin'] });
  });
  after(() => registry?.close());

  for (const [client, fetch] of [
    ['undici fetch', undiciFetch as unknown as Fetch],
    ["Node's global fetch", globalThis.fetch as Fetch],
  ] as const) {
    for (const chunked of [false, true]) {
      it(`[wire-body-limit] ${client} sees the 413 every time, for a body ${chunked ? 'sent chunked' : 'with Content-Length'}`, async () => {
        const outcomes = new Map<string, number>();
        for (let i = 0; i < TRIES; i++) {
          const init = chunked ? { body: streamed(), duplex: 'half' as const } : { body };
          let outcome: string;
          try {
            const res = await fetch(`${registry.url}/v1/connector-types/ctype_big`, {
              method: 'PUT',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              ...init,
            });
            const answer = (await res.json()) as { error?: { code?: string } };
            outcome = `${res.status} ${answer.error?.code}`;
          } catch (err) {
            outcome = String((err as { cause?: { code?: string } }).cause?.code ?? err);
          }
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
        assert.deepEqual(Object.fromEntries(outcomes), { '413 PAYLOAD_TOO_LARGE': TRIES });
      });
    }
  }
});
