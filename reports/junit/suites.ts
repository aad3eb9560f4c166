// The property and load result documents as JUnit suites, named the one way
// (see junit.ts), so properties and certify, or load and certify, report the
// same test under the same classname and name. Conformance's suites are in
// reports/conformance/junit-suites.ts.
import type { MaybeUnderFaults } from '../../load/runner/judge-under-faults.ts';
import type { ResultDocument as PropertiesDocument } from '../../properties/runner/result-document.ts';
import { spanSeconds, type JunitCase, type JunitSuite, type Outcome } from './junit.ts';

/** One suite; the suites ran one after another, so their times add up to the wall time. */
/** A property run as a suite; `part` names the stage that ran it (the faults stage runs property suites too). */
export function propertiesSuite(doc: PropertiesDocument, part: 'properties' | 'faults' = 'properties'): JunitSuite {
  return {
    name: part,
    seconds: spanSeconds(doc.started_at, doc.finished_at),
    timestamp: doc.started_at,
    cases: doc.suites.map((s): JunitCase => {
      const base = {
        classname: `fleetproof.${part}`,
        name: s.name,
        seconds: s.duration_ms / 1000,
        output: `${s.runs} runs (${s.indeterminate_runs} indeterminate), seed ${s.seed}`,
      };
      if (s.status === 'fail')
        return {
          ...base,
          outcome: {
            kind: 'fail',
            message: s.violation?.message ?? 'counterexample',
            detail: [s.violation?.message ?? '', s.replay?.command ?? '', ...(s.counterexample ?? [])].join('\n'),
            type: 'Counterexample',
          },
        };
      if (s.status === 'error')
        return { ...base, outcome: { kind: 'error', message: s.error ?? 'could not judge', type: 'CouldNotJudge' } };
      return { ...base, outcome: { kind: 'pass' } };
    }),
  };
}

/**
 * Thresholds by their stable id (with label, value and limit), phases (with their wall time) and audit
 * invariants. A failed threshold or phase is a failure only where the report judged its measurements;
 * under faults it was measured, not judged (skipped), and in a run that could not judge it is an error.
 */
export function loadSuite(r: MaybeUnderFaults): JunitSuite {
  const unjudged = (message: string): Outcome =>
    r.faults
      ? { kind: 'skip', message: `${message}: measured under faults, not judged` }
      : {
          kind: 'error',
          message: `${message}: not judged, the run could not judge (${r.could_not_judge.join('; ')})`,
          type: 'CouldNotJudge',
        };
  const failed = (message: string, type: string): Outcome => (r.measurements_judged ? { kind: 'fail', message, type } : unjudged(message));
  const thresholds = r.thresholds.map((t): JunitCase => {
    const measured =
      `${t.label}: ${t.metric} ${t.expression}: value ${t.value ?? 'none'} ${t.unit}, limit ${t.limit ?? 'n/a'}${t.margin === null ? '' : `, margin ${t.margin}`}`.replace(
        / +,/g,
        ',',
      );
    return {
      classname: 'fleetproof.load.threshold',
      name: t.id,
      seconds: 0,
      output: measured,
      outcome: t.ok ? { kind: 'pass' } : failed(measured, 'ThresholdBreached'),
    };
  });
  const phases = r.phases.map((p): JunitCase => {
    const checks = `${p.checks.fails} check(s) failed`;
    const outcome: Outcome =
      p.status === 'pass'
        ? { kind: 'pass' }
        : p.status === 'error'
          ? unjudged(p.checks_ok ? 'phase could not be judged' : checks)
          : failed(p.checks_ok ? 'phase did not finish' : checks, 'CheckFailed');
    return {
      classname: 'fleetproof.load.phase',
      name: p.name,
      seconds: (p.wall_ms ?? 0) / 1000,
      output: `${p.requests} requests, checks ${p.checks.passes}/${p.checks.passes + p.checks.fails}`,
      outcome,
    };
  });
  const audit = r.audit
    ? r.audit.invariants.map((i): JunitCase => ({
        classname: 'fleetproof.load.audit',
        name: i.id,
        seconds: 0,
        output: `${i.checked} checked, ${i.violations} violations`,
        outcome: i.ok
          ? { kind: 'pass' }
          : {
              kind: 'fail',
              message: `${i.description}: ${i.violations} violation(s)`,
              detail: i.examples.join('\n'),
              type: 'InvariantViolated',
            },
      }))
    : [
        {
          classname: 'fleetproof.load.audit',
          name: 'audit',
          seconds: 0,
          outcome: { kind: 'error', message: 'the audit did not run', type: 'CouldNotJudge' },
        } as JunitCase,
      ];
  return {
    name: 'load',
    seconds: spanSeconds(r.started_at, r.finished_at),
    timestamp: r.started_at,
    cases: [...thresholds, ...phases, ...audit],
  };
}
