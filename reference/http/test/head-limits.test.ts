// [wire-head-limits]: a request target or header fields above their limits,
// and a head too large for the parser to read at all, get the error
// envelope with a catalogue code, and the connection is closed after it.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ERROR_CATALOGUE, type ErrorCode } from '../../../contract/errors.ts';
import { DEFAULT_CONNECTION_LIMITS } from '../connection-limits.ts';
import { TestRegistry } from './support.ts';

/** Writes `head` in `chunks` pieces and reads the answer until the server closes. */
function exchange(url: string, head: string, chunks = 1): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('data', (d) => (text += d.toString('latin1')));
    // The server may close while the rest of an oversized head is still being written.
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    socket.on('close', () => {
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.slice(9, 12)), headers: text.slice(0, split).toLowerCase(), body: text.slice(split + 4) });
    });
    socket.on('connect', () => {
      const size = Math.ceil(head.length / chunks);
      for (let i = 0; i < head.length; i += size) socket.write(head.slice(i, i + size));
    });
  });
}

function expectEnvelope(reply: { status: number; headers: string; body: string }, code: ErrorCode): void {
  assert.equal(reply.status, ERROR_CATALOGUE[code].status, reply.headers);
  assert.match(reply.headers, /content-type: application\/json/);
  assert.match(reply.headers, /connection: close/);
  const body = JSON.parse(reply.body) as { error: { code: string; message: string; request_id: string } };
  assert.equal(body.error.code, code);
  assert.ok(body.error.message.length > 0 && body.error.request_id.length > 0);
}

const get = (target: string, headers = '') => `GET ${target} HTTP/1.1\r\nhost: registry\r\n${headers}\r\n`;

describe('request head limits', () => {
  let api: TestRegistry;
  before(async () => {
    api = await TestRegistry.start();
  });
  after(() => api.close());

  it('[wire-head-limits] a request target above the URL limit is URI_TOO_LONG', async () => {
    expectEnvelope(await exchange(api.url, get(`/health?pad=${'a'.repeat(DEFAULT_CONNECTION_LIMITS.maxUrlBytes)}`)), 'URI_TOO_LONG');
  });

  it('[wire-head-limits] header fields above the header limit are HEADERS_TOO_LARGE, before authentication', async () => {
    const token = 't'.repeat(DEFAULT_CONNECTION_LIMITS.maxHeaderBytes);
    expectEnvelope(await exchange(api.url, get('/v1/fleet/status', `authorization: Bearer ${token}\r\n`)), 'HEADERS_TOO_LARGE');
  });

  it('[wire-head-limits] a head the parser will not read (100 KB token, 100,000-character URL) is HEADERS_TOO_LARGE, not a reset', async () => {
    const token = 't'.repeat(100_000);
    expectEnvelope(await exchange(api.url, get('/health', `authorization: Bearer ${token}\r\n`)), 'HEADERS_TOO_LARGE');
    expectEnvelope(await exchange(api.url, get('/health', `authorization: Bearer ${token}\r\n`), 25), 'HEADERS_TOO_LARGE');
    expectEnvelope(await exchange(api.url, get(`/${'a'.repeat(100_000)}`), 25), 'HEADERS_TOO_LARGE');
  });

  it('[error-body] malformed HTTP gets the envelope too', async () => {
    expectEnvelope(await exchange(api.url, 'NOT HTTP AT ALL\r\n\r\n'), 'INVALID_REQUEST');
  });

  it('a head within the limits is served', async () => {
    const reply = await exchange(api.url, get(`/health?pad=${'a'.repeat(1000)}`, `x-pad: ${'p'.repeat(8000)}\r\nconnection: close\r\n`));
    assert.equal(reply.status, 200, reply.headers);
  });
});
