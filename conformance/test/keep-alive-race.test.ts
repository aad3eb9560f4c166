// A target that closes kept-alive connections idle for 3 s, just as the
// next request arrives on them, is judged exactly as the same target
// without the race: the reference behind such a front qualifies. A read or a
// PUT the race takes is sent again on a new connection; every other request
// goes on a connection whose previous request left less than a second ago,
// so the race never reaches it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runConformance } from '../runner/run.ts';
import { racingFront } from './misbehaving-front.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';

const IDLE_MS = 3000;
let reference: ReferenceTarget;
before(async () => {
  reference = await startReferenceTarget({ silent: true });
});
after(() => reference.close());

describe('kept-alive connections closed as the next request arrives', () => {
  it('the reference behind the race qualifies', async () => {
    const front = await racingFront(reference.url, IDLE_MS);
    try {
      const outcome = await runConformance({
        config: reference.config({ target: front.url }),
        signingKey: reference.key,
        writeReports: false,
      });
      const problems = outcome.result?.cases
        .filter((c) => c.status !== 'pass' && c.status !== 'skip')
        .map((c) => `${c.status} ${c.id}: ${c.message}`);
      assert.deepEqual(problems, []);
      assert.equal(outcome.exitCode, 0, outcome.error);
      const raced = front.seen.filter((r) => r.idleMs !== null && r.idleMs >= IDLE_MS);
      assert.ok(raced.length > 0, 'the run met the race');
      assert.ok(
        raced.every((r) => r.method === 'GET' || r.method === 'PUT'),
        'only a repeatable request met it',
      );
      console.log(`${raced.length} request(s) met a closing connection and were sent again; ${front.seen.length} requests in all`);
    } finally {
      await front.close();
    }
  });
});
