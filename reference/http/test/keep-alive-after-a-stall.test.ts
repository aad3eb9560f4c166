// [wire-connection-timeouts]: an idle keep-alive connection is closed at its
// timeout, but a request that reached the server before the close is
// answered. A server whose process stood still past the timeout (a long
// synchronous task, a machine too busy to run it) finds the timer and the
// request due at once; it reads what arrived before it closes anything,
// rather than closing a connection with a request unread in it, which the
// kernel answers with a reset the client cannot tell from a lost request.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { RawConnection } from './raw-connection.ts';
import { TestRegistry } from './support.ts';

const KEEP_ALIVE_MS = 300;
/** Past the keep-alive timeout and the second node:http adds to it before it closes, with room. */
const STALL_MS = KEEP_ALIVE_MS + 2000;
const opened: Array<{ close(): unknown }> = [];
after(async () => {
  for (const o of opened.reverse()) await o.close();
});

const HEALTH = 'GET /health HTTP/1.1\r\nhost: registry\r\n\r\n';

/** Stands the whole process still, the server's event loop included. */
function standStill(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // a synchronous stretch: no timer, no I/O runs meanwhile
  }
}

async function answerOrClose(conn: RawConnection): Promise<number | 'closed'> {
  const closed = conn.closedWithin(5000).then(() => 'closed' as const);
  return Promise.race([
    conn.answer().then(
      (a) => a.status,
      () => 'closed' as const,
    ),
    closed,
  ]);
}

describe('an idle keep-alive connection and a stalled server', () => {
  it('a request that arrived before the keep-alive timeout fired is answered, not reset', async () => {
    const api = await TestRegistry.start({ connections: { keepAliveTimeoutMs: KEEP_ALIVE_MS } });
    opened.push(api);
    const conn = await RawConnection.open(api.url);
    opened.push(conn);
    await conn.write(HEALTH);
    assert.equal((await conn.answer()).status, 200);
    await sleep(KEEP_ALIVE_MS / 3);
    await conn.write(HEALTH);
    standStill(STALL_MS);
    assert.equal(await answerOrClose(conn), 200);
  });

  it('an idle connection is still closed at its timeout', async () => {
    const api = await TestRegistry.start({ connections: { keepAliveTimeoutMs: KEEP_ALIVE_MS } });
    opened.push(api);
    const conn = await RawConnection.open(api.url);
    opened.push(conn);
    await conn.write(HEALTH);
    assert.equal((await conn.answer()).status, 200);
    assert.equal(await conn.closedWithin(STALL_MS + 2000), true);
  });
});
