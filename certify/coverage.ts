// Per clause of spec.md, what covered it in this run: conformance cases,
// property suites and load audit invariants, and the worst of their outcomes.
import { clauses } from '../contract/clauses.ts';
import type { ClauseCoverage } from '../reports/schemas/certification-result.ts';
import type { ClauseEvidence } from './stages/stage.ts';

const ORDER: readonly ClauseCoverage['status'][] = ['unknown', 'skip', 'pass', 'fail', 'error'];

function worst(a: ClauseCoverage['status'], b: ClauseCoverage['status']): ClauseCoverage['status'] {
  return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;
}

export function clauseCoverage(evidence: readonly ClauseEvidence[]): ClauseCoverage[] {
  return [...clauses().values()].map((clause) => {
    const own = evidence.filter((e) => e.clause === clause.id);
    return {
      id: clause.id,
      keyword: clause.keyword,
      severity: clause.severity,
      section: clause.section,
      status: own.reduce<ClauseCoverage['status']>((s, e) => worst(s, e.status), 'unknown'),
      cases: own.filter((e) => e.kind === 'case').map((e) => ({ id: e.id, status: e.status })),
      properties: own.filter((e) => e.kind === 'property').map((e) => ({ suite: e.id, status: e.status })),
    };
  });
}
