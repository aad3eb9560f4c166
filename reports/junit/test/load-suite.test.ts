// A load run's JUnit cases say what its report judged: a crossed threshold
// fails only where the run judged its measurements; under faults it was
// measured only (skipped), and in a run that could not judge it is an error
// with the reason. An audited violation fails in every case.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSuite } from '../suites.ts';
import { sampleLoad, sampleLoadUnderFaults } from '../../test/sample-documents.ts';

const outcomeOf = (suite: ReturnType<typeof loadSuite>, classname: string, name: string) =>
  suite.cases.find((c) => c.classname === classname && c.name === name)?.outcome.kind;

test('a judged run fails its crossed threshold', () => {
  const r = sampleLoad();
  const crossed = r.thresholds.find((t) => !t.ok)!;
  assert.equal(outcomeOf(loadSuite(r), 'fleetproof.load.threshold', crossed.id), 'fail');
});

test('in a run that could not judge, a crossed threshold and an unjudged phase are errors, not failures', () => {
  const base = sampleLoad();
  const r = {
    ...base,
    verdict: 'could-not-judge' as const,
    measurements_judged: false,
    could_not_judge: ['could not judge at this rate'],
    phases: base.phases.map((p, i) => (i === 0 ? { ...p, status: 'error' as const } : p)),
  };
  const suite = loadSuite(r);
  const crossed = r.thresholds.find((t) => !t.ok)!;
  assert.equal(outcomeOf(suite, 'fleetproof.load.threshold', crossed.id), 'error');
  assert.equal(outcomeOf(suite, 'fleetproof.load.phase', r.phases[0]!.name), 'error');
  assert.match(JSON.stringify(suite.cases.find((c) => c.name === crossed.id)!.outcome), /could not judge at this rate/);
});

test('under faults, a crossed threshold is skipped as measured; an audited violation still fails', () => {
  const base = sampleLoadUnderFaults();
  const invariant = base.audit!.invariants[0]!;
  const r = {
    ...base,
    verdict: 'fail' as const,
    audit: { ...base.audit!, ok: false, invariants: [{ ...invariant, ok: false, violations: 1, examples: ['x'] }] },
  };
  const suite = loadSuite(r);
  assert.equal(outcomeOf(suite, 'fleetproof.load.threshold', r.thresholds.find((t) => !t.ok)!.id), 'skip');
  assert.equal(outcomeOf(suite, 'fleetproof.load.audit', invariant.id), 'fail');
});
