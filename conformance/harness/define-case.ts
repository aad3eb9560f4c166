// The only way to declare a conformance case. Metadata lives in the file, as
// test262's frontmatter does, but in code, so it is typed and the runner and
// the lint read the same values:
//
//   export default defineCase({
//     id: 'settlement/altered-fence-token-is-fence-lost',   // == path under cases/
//     clause: 'settle-fence',                               // an anchor of spec.md
//     category: 'settlement',                               // == the folder
//     description: 'a settlement with an altered fence token is FENCE_LOST and changes nothing',
//     async run(ctx) { ... },
//   });
//
// Severity is never written by hand: it follows the clause's RFC 2119 keyword
// (MUST → required, SHOULD → recommended, MAY → optional).
import { clauses, type Keyword, type Severity } from '../../contract/clauses.ts';
import type { CaseContext } from './context.ts';
import type { Category, Feature, Flag } from './vocabulary.ts';

export interface CaseSpec {
  /** `<category>/<behaviour>`: the file's path under conformance/cases/ without `.case.ts`. */
  id: string;
  /** The spec.md anchor this case tests. */
  clause: string;
  category: Category;
  /** One line, under 100 characters: the behaviour, stated as a fact. */
  description: string;
  /** Optional features of GET /version the case needs; without them it is skipped. */
  features?: readonly Feature[];
  flags?: readonly Flag[];
  run(ctx: CaseContext): Promise<void>;
}

export const CASE_BRAND = 'fleetproof-conformance-case/v1';

export interface ConformanceCase extends Readonly<Omit<CaseSpec, 'features' | 'flags'>> {
  readonly kind: typeof CASE_BRAND;
  readonly features: readonly Feature[];
  readonly flags: readonly Flag[];
  /** The clause's keyword and the severity it implies; null when the clause is unknown (a lint error). */
  readonly keyword: Keyword | null;
  readonly severity: Severity | null;
}

export function defineCase(spec: CaseSpec): ConformanceCase {
  const clause = clauses().get(spec.clause);
  return Object.freeze({
    ...spec,
    kind: CASE_BRAND,
    features: Object.freeze([...(spec.features ?? [])]),
    flags: Object.freeze([...(spec.flags ?? [])]),
    keyword: clause?.keyword ?? null,
    severity: clause?.severity ?? null,
  });
}

export function isConformanceCase(value: unknown): value is ConformanceCase {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === CASE_BRAND;
}
