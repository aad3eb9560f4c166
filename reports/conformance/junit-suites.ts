// A conformance run as JUnit suites, one per category, named the one way
// (see reports/junit/junit.ts): conform and certify write these same suites.
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import type { JunitCase, JunitSuite } from '../junit/junit.ts';
import { exchangeText } from './exchange-text.ts';
import { reproduction } from './reproduce.ts';

/** One suite per category; its time is the span its cases ran in (they run concurrently), not their sum. */
export function conformanceSuites(r: ConformanceResult): JunitSuite[] {
  const byCategory = new Map<string, ConformanceResult['cases']>();
  for (const c of r.cases) byCategory.set(c.category, [...(byCategory.get(c.category) ?? []), c]);
  return [...byCategory].map(([category, cases]) => {
    const starts = cases.filter((c) => c.started_at).map((c) => Date.parse(c.started_at!));
    const ends = cases.filter((c) => c.started_at).map((c) => Date.parse(c.started_at!) + c.duration_ms);
    const wall = starts.length ? (Math.max(...ends) - Math.min(...starts)) / 1000 : 0;
    return {
      name: `conformance.${category}`,
      seconds: wall,
      timestamp: starts.length ? new Date(Math.min(...starts)).toISOString() : r.timings.started_at,
      cases: cases.map((c): JunitCase => {
        const clause = `clause [${c.failure_clause ?? c.clause}] (${c.severity ?? 'unknown'})`;
        const detail = () =>
          [clause, c.message ?? '', '', ...(c.exchange ? [exchangeText(c.exchange), ''] : []), 'To reproduce:', reproduction(r, c)].join(
            '\n',
          );
        const base = { classname: `fleetproof.conformance.${c.category}`, name: c.id, seconds: c.duration_ms / 1000, output: clause };
        if (c.status === 'fail')
          return { ...base, outcome: { kind: 'fail', message: c.message ?? 'failed', detail: detail(), type: 'ConformanceFailure' } };
        if (c.status === 'error')
          return { ...base, outcome: { kind: 'error', message: c.message ?? 'error', detail: detail(), type: 'HarnessError' } };
        if (c.status === 'skip') return { ...base, outcome: { kind: 'skip', message: c.message ?? 'skipped' } };
        return { ...base, outcome: { kind: 'pass' } };
      }),
    };
  });
}
