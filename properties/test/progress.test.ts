// What the property suites' progress shows: on a terminal a bar over the runs
// planned with the time left, redrawn in place, and a suite that did not hold
// printed above it in full; in a log no escape codes, no line per suite that
// holds, and one closing line. The clock is mocked, so what is drawn is exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capturedStream as stream } from '../../client/test/captured-stream.ts';
import { propertiesProgress } from '../runner/progress.ts';
import type { SuiteResult } from '../runner/run-properties.ts';

function result(name: SuiteResult['name'], status: SuiteResult['status'], over: Partial<SuiteResult> = {}): SuiteResult {
  return {
    name,
    property: 'no-overbooking',
    status,
    runs: 4,
    indeterminateRuns: 0,
    shrinks: 0,
    durationMs: 1000,
    seed: 7,
    path: null,
    violation: null,
    counterexample: null,
    error: null,
    ...over,
  };
}

const PLAN = [
  { name: 'pinned-routes' as const, runs: 4 },
  { name: 'no-overbooking' as const, runs: 4 },
];
const VIOLATION = { property: 'no-overbooking' as const, message: 'a pool holds 3 of its 2 slots' };

test('on a terminal: a bar over the runs with the time left, redrawn in place, a failure above it', (t) => {
  t.mock.timers.enable({ apis: ['Date', 'setInterval'], now: 0 });
  const out = stream(true);
  const progress = propertiesProgress(out);
  progress.planned(PLAN);
  progress.suiteStarted('pinned-routes');
  progress.runStarted();
  progress.runStarted();
  t.mock.timers.tick(1000);
  // Two runs of eight in one second: three seconds to go.
  assert.ok(
    out.text.endsWith('\r\x1b[J[====>---------------] 0/2 properties  0 pass, 0 fail, 0 error  pinned-routes  1s, ETA 3s'),
    out.text,
  );
  progress.suiteFinished(result('pinned-routes', 'pass'));
  progress.suiteStarted('no-overbooking');
  t.mock.timers.tick(1000);
  assert.ok(out.text.endsWith('[=========>----------] 1/2 properties  1 pass, 0 fail, 0 error  no-overbooking  2s, ETA 2s'), out.text);
  assert.doesNotMatch(out.text, /^pass /m, 'a suite that holds is counted in the bar, not listed');
  progress.suiteFinished(result('no-overbooking', 'fail', { violation: VIOLATION, runs: 3 }));
  assert.match(
    out.text,
    /\r\x1b\[Jfail  no-overbooking +3 runs, 1\.0 s\n {2}no-overbooking: a pool holds 3 of its 2 slots\n/,
    'the failure in full',
  );
  progress.finished();
  assert.ok(
    out.text.endsWith(
      '[====================] 2/2 properties  1 pass, 1 fail, 0 error  2s\n2 properties, 7 runs: 1 pass, 1 fail, 0 error in 2s\n',
    ),
    out.text,
  );
});

test('in a log: no escape codes, the failures in full and one closing line', (t) => {
  t.mock.timers.enable({ apis: ['Date', 'setInterval'], now: 0 });
  const out = stream(false);
  const progress = propertiesProgress(out);
  progress.planned(PLAN);
  progress.suiteStarted('pinned-routes');
  progress.runStarted();
  t.mock.timers.tick(5000);
  progress.suiteFinished(result('pinned-routes', 'error', { error: 'too many runs were indeterminate to judge the property (4)' }));
  progress.suiteStarted('no-overbooking');
  progress.suiteFinished(result('no-overbooking', 'pass'));
  progress.finished();
  assert.equal(
    out.text,
    [
      'error pinned-routes             4 runs, 1.0 s',
      '  too many runs were indeterminate to judge the property (4)',
      '2 properties, 8 runs: 1 pass, 0 fail, 1 error in 5s',
      '',
    ].join('\n'),
  );
});
