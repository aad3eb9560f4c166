// Targets that misbehave, each started by the test in front of the
// reference: whatever they do, the run ends COULD NOT JUDGE (exit 2), never
// QUALIFIED, within its bound: every exchange's deadline (the run's
// --timeout-ms) and the stage's budget. The tests assert outcomes, not
// times; each prints how long its run took.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeBytes } from '../../client/answer-limit.ts';
import type { LoopbackTarget } from '../../client/test/loopback-target.ts';
import { runConformance, type ConformOutcome } from '../runner/run.ts';
import type { ConformConfig } from '../runner/config.ts';
import { earlyRefusingFront, misbehavingFront, type Misbehaviour } from './misbehaving-front.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';

const TIMEOUT_MS = 2000;
let reference: ReferenceTarget;
before(async () => {
  reference = await startReferenceTarget({ silent: true });
});
after(() => reference.close());

async function judged(front: LoopbackTarget, overrides: Partial<ConformConfig>): Promise<ConformOutcome & { tookMs: number }> {
  const started = performance.now();
  try {
    const outcome = await runConformance({
      config: reference.config({ target: front.url, categories: ['fleet'], timeoutMs: TIMEOUT_MS, ...overrides }),
      signingKey: reference.key,
      writeReports: false,
    });
    return { ...outcome, tookMs: Math.round(performance.now() - started) };
  } finally {
    await front.close();
  }
}

function couldNotJudge(outcome: ConformOutcome, why: RegExp): void {
  assert.equal(outcome.exitCode, 2, outcome.error);
  if (outcome.result) {
    assert.equal(outcome.result.verdict, 'could-not-judge');
    const said = [outcome.error, ...outcome.result.cases.map((c) => c.message)].join('\n');
    assert.match(said, why);
  } else assert.match(outcome.error ?? '', why);
}

const FLEET_STATUS = (path: string) => path.startsWith('/v1/fleet/status');

const BEHAVIOURS: Array<{ name: string; misbehaviour: Misbehaviour; on?: (path: string) => boolean; why: RegExp }> = [
  {
    name: 'a body trickled on /v1/fleet/status',
    misbehaviour: 'trickle',
    on: FLEET_STATUS,
    why: /no whole answer within 2000 ms|timed out after 2000 ms/,
  },
  {
    name: 'bodies trickled on every path',
    misbehaviour: 'trickle',
    why: /does not answer \(GET \/version: no whole answer within 2000 ms/,
  },
  {
    name: 'no answer ever',
    misbehaviour: 'silent',
    why: /does not answer \(GET \/version: no whole answer within 2000 ms\): check that --target is the registry's base URL and that the registry is not stalled$/,
  },
  {
    name: 'garbage instead of an answer',
    misbehaviour: 'garbage',
    why: /does not answer \(Response does not match the HTTP\/1.1 protocol/,
  },
  { name: 'a 512 MB answer', misbehaviour: 'huge', why: /536870912 bytes \(Content-Length\), more than the 1 MiB this run reads/ },
  { name: 'a 512 MB answer on /v1/fleet/status', misbehaviour: 'huge', on: FLEET_STATUS, why: /more than the \d+ MiB this run reads/ },
  { name: 'a connection closed mid-body', misbehaviour: 'close-mid-body', why: /does not answer \(UND_ERR_SOCKET\)/ },
  { name: 'a reset after the head', misbehaviour: 'reset-after-head', why: /does not answer \((ECONNRESET|UND_ERR_SOCKET)\)/ },
];

describe('a misbehaving target ends COULD NOT JUDGE within its bound', () => {
  for (const b of BEHAVIOURS) {
    it(b.name, async () => {
      const outcome = await judged(await misbehavingFront(reference.url, b.misbehaviour, b.on), {});
      couldNotJudge(outcome, b.why);
      console.log(`${b.name}: exit ${outcome.exitCode} after ${outcome.tookMs} ms (each exchange bounded by ${TIMEOUT_MS} ms)`);
    });
  }

  it('a stage out of its budget stops its cases and names them', async () => {
    const front = await misbehavingFront(reference.url, 'trickle', FLEET_STATUS);
    const started = performance.now();
    try {
      const outcome = await runConformance({
        config: reference.config({ target: front.url, categories: ['fleet'], timeoutMs: 120_000, budgets: { conformance: 5000 } }),
        signingKey: reference.key,
        writeReports: false,
      });
      const tookMs = Math.round(performance.now() - started);
      couldNotJudge(outcome, /the conformance stage ran out of its budget of 5 s \(--budget conformance=DURATION\); outstanding: fleet\//);
      assert.equal(outcome.result!.unfinished, outcome.error);
      assert.equal((outcome.result!.config['budgets_ms'] as { conformance: number }).conformance, 5000);
      // What the stage started stops with it: the front sees every trickled answer abandoned.
      for (let waited = 0; front.connections() > 0 && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      assert.equal(front.connections(), 0);
      console.log(`budget of 5 s: exit ${outcome.exitCode} after ${tookMs} ms`);
    } finally {
      await front.close();
    }
  });
});

describe('an early answer to a body the target does not read', () => {
  it('is judged on the answer it sent: the oversized-body case passes', async () => {
    const front = await earlyRefusingFront(reference.url, reference.store.limits.max_body_bytes);
    const outcome = await judged(front, { categories: [], cases: ['wire/oversized-body-is-payload-too-large'], timeoutMs: 30_000 });
    assert.deepEqual(
      outcome.result?.cases.map((c) => [c.status, c.message]),
      [['pass', null]],
    );
    assert.ok(
      front.seen.some((r) => r.body.length === 0 && Number(r.headers['content-length']) > 0),
      'the front answered before the body',
    );
    console.log(
      `early 413 (${describeBytes(reference.store.limits.max_body_bytes)} limit): exit ${outcome.exitCode} after ${outcome.tookMs} ms`,
    );
  });
});
