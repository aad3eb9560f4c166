// What the server does with a body it answered before reading it all
// ([wire-body-limit], [wire-connection-timeouts]): the rest is read and
// discarded so the client can read the answer, and the connection then
// serves its next request; a body that goes on past the bound is cut off.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DRAIN_FACTOR } from '../unread-body.ts';
import { RawConnection } from './raw-connection.ts';
import { TestRegistry } from './support.ts';

const MAX_BODY_BYTES = 65_536;

async function withConnection(body: (api: TestRegistry, connection: RawConnection, token: string) => Promise<void>): Promise<void> {
  const api = await TestRegistry.start({ maxBodyBytes: MAX_BODY_BYTES });
  const connection = await RawConnection.open(api.url);
  try {
    await body(api, connection, await api.token(['registry:admin']));
  } finally {
    connection.close();
    await api.close();
  }
}

const put = (token: string, framing: string) =>
  `PUT /v1/connector-types/ctype_big HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`;

describe('unread bodies', () => {
  it('[wire-body-limit] a declared body over the limit is answered first, then read and discarded; the connection goes on', () =>
    withConnection(async (api, connection, token) => {
      const length = 3 * MAX_BODY_BYTES;
      await connection.write(put(token, `content-length: ${length}`));
      const refusal = await connection.answer();
      assert.equal(refusal.status, 413, 'answered before a byte of the body was sent');
      assert.notEqual(refusal.headers['connection'], 'close', 'the connection is kept for the rest of the body');
      await connection.write(Buffer.alloc(length, 0x20));
      await connection.write('GET /health HTTP/1.1\r\nhost: x\r\n\r\n');
      assert.equal((await connection.answer()).status, 200);
      assert.equal(await api.store.getConnectorType('ctype_big'), null);
    }));

  it('[wire-connection-timeouts] a refused body that goes on past the bound is cut off', () =>
    withConnection(async (_api, connection, token) => {
      await connection.write(put(token, 'transfer-encoding: chunked'));
      const chunk = `10000\r\n${'x'.repeat(0x10000)}\r\n`;
      const refusal = connection.answer();
      let written = 0;
      // The server closes once the bound is passed; a write after that fails.
      const cut = await (async () => {
        try {
          for (; written <= (DRAIN_FACTOR + 2) * MAX_BODY_BYTES; written += 0x10000) await connection.write(chunk);
          return false;
        } catch {
          return true;
        }
      })();
      assert.equal((await refusal).status, 413);
      assert.ok(cut || (await connection.closedWithin(5_000)), `the connection outlived ${written} bytes of a refused body`);
    }));
});
