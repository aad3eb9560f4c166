// JUnit XML covering all three stages, for CI systems: one testsuite per
// stage; conformance cases, property suites, load thresholds and audit
// invariants are its testcases.
import type { CertificationResult } from '../schemas/certification-result.ts';
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import type { ResultDocument as PropertiesDocument } from '../../properties/runner/result-document.ts';
import { xmlEscape as x } from '../conformance/render-junit.ts';
import type { LoadReport } from '../../load/runner/load-report.ts';
import type { FaultsDocument } from '../schemas/faults-result.ts';

interface TestCase {
  name: string;
  classname: string;
  seconds: number;
  failure?: string;
  error?: string;
  skipped?: boolean;
}

function suite(name: string, cases: TestCase[]): string {
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const errors = cases.filter((c) => c.error !== undefined).length;
  const skipped = cases.filter((c) => c.skipped).length;
  const time = cases.reduce((t, c) => t + c.seconds, 0);
  const body = cases
    .map((c) => {
      const inner = c.failure !== undefined ? `<failure message="${x(c.failure.split('\n')[0]!)}">${x(c.failure)}</failure>` : c.error !== undefined ? `<error message="${x(c.error.split('\n')[0]!)}">${x(c.error)}</error>` : c.skipped ? '<skipped/>' : '';
      return `    <testcase name="${x(c.name)}" classname="${x(c.classname)}" time="${c.seconds.toFixed(3)}">${inner}</testcase>`;
    })
    .join('\n');
  return `  <testsuite name="${x(name)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time.toFixed(3)}">\n${body}\n  </testsuite>`;
}

export interface StageDocuments {
  conformance: ConformanceResult | null;
  properties: PropertiesDocument | null;
  faults?: FaultsDocument | null;
  load: LoadReport | null;
}

function propertySuiteCases(doc: PropertiesDocument, classname: string): TestCase[] {
  return doc.suites.map((s) => ({
    name: s.name,
    classname,
    seconds: s.duration_ms / 1000,
    ...(s.status === 'fail' ? { failure: `${s.violation?.message ?? ''}\n${s.replay?.command ?? ''}\n${(s.counterexample ?? []).join('\n')}` } : {}),
    ...(s.status === 'error' ? { error: s.error ?? 'error' } : {}),
  }));
}

export function renderCertificationJunit(r: CertificationResult, docs: StageDocuments): string {
  const suites: string[] = [];
  if (docs.conformance) {
    suites.push(
      suite(
        'conformance',
        docs.conformance.cases.map((c) => ({
          name: c.id,
          classname: `conformance.${c.category}`,
          seconds: c.duration_ms / 1000,
          ...(c.status === 'fail' ? { failure: `[${c.failure_clause ?? c.clause}] ${c.message ?? ''}` } : {}),
          ...(c.status === 'error' ? { error: c.message ?? 'error' } : {}),
          ...(c.status === 'skip' ? { skipped: true } : {}),
        })),
      ),
    );
  }
  if (docs.properties) {
    suites.push(
      suite(
        'properties',
        propertySuiteCases(docs.properties, 'properties'),
      ),
    );
  }
  if (docs.faults?.properties) suites.push(suite('faults', propertySuiteCases(docs.faults.properties, 'faults')));
  if (docs.load) {
    const l = docs.load;
    suites.push(
      suite('load', [
        ...l.thresholds.map((t) => ({ name: `threshold ${t.label}`, classname: 'load.thresholds', seconds: 0, ...(t.ok ? {} : { failure: `${t.metric} ${t.expression}: ${t.value ?? 'no value'}` }) })),
        ...l.phases.map((p) => ({ name: `phase ${p.name}`, classname: 'load.phases', seconds: (p.wall_ms ?? 0) / 1000, ...(p.checks_ok ? {} : { failure: `${p.checks.fails} check(s) failed` }) })),
        ...(l.audit?.invariants ?? []).map((i) => ({ name: `audit ${i.id}`, classname: 'load.audit', seconds: 0, ...(i.ok ? {} : { failure: `${i.description}: ${i.examples.join('; ')}` }) })),
      ]),
    );
  }
  for (const s of r.stages) {
    if (s.status === 'could-not-run' || s.status === 'skipped') suites.push(suite(s.name, [{ name: `${s.name} stage`, classname: s.name, seconds: 0, error: s.reasons.join('\n') || s.status }]));
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="fleetproof certification ${x(r.run_id)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
