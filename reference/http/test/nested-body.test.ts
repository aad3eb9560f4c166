// [wire-nesting], [error-no-server-error-on-input]: a body that nests too
// deep is refused at the byte that crosses its operation's bound, while it
// still streams in, and never parsed; the server keeps answering everyone
// else meanwhile. Asserted by order alone: the refusal arrives before the
// client has written the body's last byte (a server that read the body first
// could not answer yet), health checks are answered between every megabyte,
// and the connection serves its next request once the rest is discarded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mintToken } from '../../../client/token-minter.ts';
import { startChildRegistry, type ChildRegistry } from './child-registry.ts';
import { RawConnection } from './raw-connection.ts';

const BODY_BYTES = 16_000_000;
const PIECE_BYTES = 1_000_000;
const nested = Buffer.concat([Buffer.alloc(BODY_BYTES / 2, '['), Buffer.alloc(BODY_BYTES / 2, ']')]);

describe('deeply nested bodies', () => {
  let registry: ChildRegistry;
  before(async () => (registry = await startChildRegistry(16 * 1024 * 1024)));
  after(() => registry?.close());

  for (const [operation, path, roles] of [
    ['resolveRoute', '/v1/routes', ['registry:dispatch']],
    ['applyBatch', '/v1/batch', ['registry:admin']],
  ] as const) {
    it(`[wire-nesting] a 16 MB nested ${operation} body is refused before its last byte, and health checks go on`, async () => {
      const token = await mintToken({ key: registry.key, roles: [...roles], tenant: 'tenant-nested' });
      const upload = await RawConnection.open(registry.url);
      const health = await RawConnection.open(registry.url);
      const order: string[] = [];
      try {
        const refusal = upload.answer().then((answer) => (order.push('refused'), answer));
        await upload.write(
          `POST ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: ${BODY_BYTES}\r\n\r\n`,
        );
        for (let at = 0; at < BODY_BYTES; at += PIECE_BYTES) {
          await upload.write(nested.subarray(at, at + PIECE_BYTES));
          if (at + PIECE_BYTES >= BODY_BYTES) order.push('last byte written');
          await health.write('GET /health HTTP/1.1\r\nhost: x\r\n\r\n');
          assert.equal((await health.answer()).status, 200, `health after ${at + PIECE_BYTES} bytes`);
        }
        const answer = await refusal;
        assert.equal(answer.status, 400);
        assert.equal((JSON.parse(answer.body) as { error: { code: string } }).error.code, 'INVALID_REQUEST');
        assert.deepEqual(order, ['refused', 'last byte written'], 'the refusal did not wait for the body');
        // The rest was read and discarded: the same connection serves the next request.
        await upload.write('GET /health HTTP/1.1\r\nhost: x\r\n\r\n');
        assert.equal((await upload.answer()).status, 200);
      } finally {
        upload.close();
        health.close();
      }
    });
  }
});
