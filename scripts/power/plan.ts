// What `npm run power` runs against one defect: the conformance cases that
// cite the defect's clause, then, only if none of them fails, every case of
// their categories (a neighbouring case may be what catches it); and the
// property suites that claim the clause (certify/property-clauses.ts).
import { PROPERTY_CLAUSES } from '../../certify/property-clauses.ts';
import type { Category } from '../../conformance/harness/vocabulary.ts';
import { loadCases } from '../../conformance/runner/load-cases.ts';
import { SUITE_NAMES, type SuiteName } from '../../properties/suites/index.ts';
import type { Defect } from '../../reference/defects/defect.ts';

export interface CaseIndex {
  /** Case ids by the clause they cite. */
  readonly byClause: ReadonlyMap<string, readonly string[]>;
}

export async function caseIndex(): Promise<CaseIndex> {
  const byClause = new Map<string, string[]>();
  for (const loaded of await loadCases()) {
    const c = loaded.case;
    if (!c) continue;
    byClause.set(c.clause, [...(byClause.get(c.clause) ?? []), c.id]);
  }
  return { byClause };
}

export interface Plan {
  /** The cases citing the clause. */
  readonly cases: readonly string[];
  /** Their categories, run whole only when the cases alone catch nothing. */
  readonly categories: readonly Category[];
  readonly suites: readonly SuiteName[];
}

export function planFor(defect: Defect, index: CaseIndex): Plan {
  const cases = index.byClause.get(defect.clause) ?? [];
  return {
    cases,
    categories: [...new Set(cases.map((id) => id.split('/')[0] as Category))],
    suites: SUITE_NAMES.filter((s) => PROPERTY_CLAUSES[s].includes(defect.clause)),
  };
}
