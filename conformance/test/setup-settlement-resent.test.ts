// A setup settlement whose connection broke before its answer is sent once
// more ([settle-idempotent]: a repeated settlement changes nothing): behind
// a front that resets the first settlement of every route before forwarding
// it, a case that settles only in its setup still passes. When the first
// attempt had released the reservation, the second releases nothing, and
// the setup says it cannot tell instead of answering for the first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forwarded, loopbackTarget, writeAnswer, type LoopbackTarget } from '../../client/test/loopback-target.ts';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';

const CASE = 'pinned/concurrent-retries-of-one-action-reserve-once';

let reference: ReferenceTarget;
before(async () => {
  reference = await startReferenceTarget({ silent: true });
});
after(() => reference.close());

/** Breaks the first settlement of each route: reset unsent, or forwarded and its answer lost. */
function breakingFirstSettlements(forwardFirst: boolean): Promise<LoopbackTarget> {
  const seen = new Set<string>();
  return loopbackTarget(async (req, socket) => {
    const first = req.method === 'POST' && req.path.endsWith('/settlement') && !seen.has(req.path);
    if (!first) return writeAnswer(socket, await forwarded(reference.url, req));
    seen.add(req.path);
    if (forwardFirst) await forwarded(reference.url, req);
    socket.resetAndDestroy();
  });
}

async function run(forwardFirst: boolean) {
  const front = await breakingFirstSettlements(forwardFirst);
  try {
    const outcome = await runConformance({
      config: reference.config({ target: front.url, cases: [CASE] }),
      signingKey: reference.key,
      writeReports: false,
    });
    return outcome.result!.cases.find((c) => c.id === CASE)!;
  } finally {
    await front.close();
  }
}

describe('a setup settlement whose connection broke', () => {
  it('is sent again: the case passes when the first attempt never arrived', async () => {
    const result = await run(false);
    assert.equal(result.status, 'pass', result.message ?? '');
  });

  it('that had released the reservation leaves the case without a verdict, never a failure', async () => {
    const result = await run(true);
    assert.equal(result.status, 'error', result.message ?? '');
    assert.match(result.message ?? '', /sent again, it released nothing: whether the first attempt did is unknown/);
  });
});
