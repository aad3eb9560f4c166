// What the faults stage's progress shows: on a terminal a bar over the round
// running (or over the duration a soak must last) with the faults so far and
// the time left, the nemesis's events and the suites that did not hold above
// it; in a log the events and failures only, no line per round. The clock is
// mocked, so what is drawn is exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capturedStream as stream } from '../../../client/test/captured-stream.ts';
import { faultsProgress } from '../faults-progress.ts';
import type { SuiteResult } from '../../../properties/runner/run-properties.ts';

const PLAN = [
  { name: 'pinned-routes' as const, runs: 4 },
  { name: 'no-overbooking' as const, runs: 4 },
];

const failed: SuiteResult = {
  name: 'no-overbooking',
  property: 'no-overbooking',
  status: 'fail',
  runs: 2,
  indeterminateRuns: 1,
  shrinks: 0,
  durationMs: 2000,
  seed: 8,
  path: '0:1',
  violation: { property: 'no-overbooking', message: 'a pool holds 3 of its 2 slots' },
  counterexample: null,
  error: null,
};

test('on a terminal: a bar over the round with the faults so far and the time left, events above it', (t) => {
  t.mock.timers.enable({ apis: ['Date', 'setInterval'], now: 0 });
  const out = stream(true);
  const progress = faultsProgress({}, (line) => out.write(`${line}\n`), out);
  const bands: unknown[] = [];
  progress.roundNote('faults: round 1, 0 fault(s) so far');
  const round = progress.round(1, bands);
  round.planned(PLAN);
  round.suiteStarted('pinned-routes');
  round.runStarted();
  round.runStarted();
  progress.note('nemesis: proxy fault');
  bands.push({});
  t.mock.timers.tick(1000);
  assert.match(out.text, /^\r\x1b\[Jfaults: round 1, 0 fault\(s\) so far\n/, 'a round begins above the bar');
  assert.match(out.text, /\r\x1b\[Jnemesis: proxy fault\n/, 'the nemesis’s events above the bar');
  assert.ok(
    out.text.endsWith('\r\x1b[J[====>---------------] round 1  0/2 properties  1 fault so far  pinned-routes  1s, ETA 3s'),
    out.text,
  );
  round.suiteFinished({ ...failed, name: 'pinned-routes', status: 'pass' });
  round.suiteStarted('no-overbooking');
  round.suiteFinished(failed);
  round.finished();
  assert.match(
    out.text,
    /\r\x1b\[Jround 1: fail {2}no-overbooking +2 runs, 1 indeterminate, 2\.0 s\n {2}no-overbooking: a pool holds 3 of its 2 slots\n/,
  );
  // The next round starts its bar afresh.
  t.mock.timers.tick(1000);
  const second = progress.round(2, bands);
  second.planned(PLAN);
  t.mock.timers.tick(500);
  assert.ok(out.text.endsWith('[--------------------] round 2  0/2 properties  1 fault so far  3s'), out.text);
  progress.end();
  assert.ok(out.text.endsWith('\n'), 'the last bar stays, and the next line starts below it');
});

test('a soak: the bar is over the duration the rounds must last', (t) => {
  t.mock.timers.enable({ apis: ['Date', 'setInterval'], now: 0 });
  const out = stream(true);
  const progress = faultsProgress({ minDurationMs: 60_000 }, (line) => out.write(`${line}\n`), out);
  progress.round(3, [{}, {}]).planned(PLAN);
  t.mock.timers.tick(15_000);
  assert.ok(out.text.endsWith('[====>---------------] round 3 of at least 1m00s  0/2 properties  2 faults so far  15s, ETA 45s'), out.text);
  progress.end();
});

test('in a log: the events and failures, no line per round and no escape codes', (t) => {
  t.mock.timers.enable({ apis: ['Date', 'setInterval'], now: 0 });
  const out = stream(false);
  const logged: string[] = [];
  const progress = faultsProgress({}, (line) => logged.push(line), out);
  for (const n of [1, 2]) {
    progress.roundNote(`faults: round ${n}, 0 fault(s) so far`);
    const round = progress.round(n, []);
    round.planned(PLAN);
    round.suiteStarted('pinned-routes');
    round.runStarted();
    t.mock.timers.tick(2000);
    round.suiteFinished({ ...failed, name: 'pinned-routes', status: 'pass' });
    round.finished();
  }
  progress.note('nemesis: proxy fault');
  const last = progress.round(3, []);
  last.planned(PLAN);
  last.suiteFinished(failed);
  progress.end();
  assert.deepEqual(logged, ['nemesis: proxy fault'], 'the stage’s lines go to the certification’s log');
  assert.match(
    out.text,
    /^round 3: fail {2}no-overbooking +2 runs, 1 indeterminate, 2\.0 s\n {2}no-overbooking: a pool holds 3 of its 2 slots\n$/,
  );
});
