// Turns case results into the result document: per clause and per category
// the worst status of their cases; a failure that broke another clause than
// the one its case cites (a malformed error body, a server error) marks that
// clause too; the verdict follows INTERPRETING.md.
import type { Clause } from '../../contract/clauses.ts';
import { caseSetOf, contractRevision } from '../../client/provenance.ts';
import type { VersionInfo } from '../../contract/records.ts';
import type { ServerClock } from '../harness/clock.ts';
import type { RetirementOutcome } from '../harness/retirement.ts';
import { CATEGORY_NAMES } from '../harness/vocabulary.ts';
import { EXEMPT_CLAUSES } from '../lint/config.ts';
import { harnessProvenance } from './provenance.ts';
import { RESULT_SCHEMA, type CaseResult, type CategoryResult, type ClauseResult, type ConformanceResult, type KeptData } from './result.ts';
import { blocksQualification, CASE_STATUSES, rollUp, verdictOf, type CaseStatus, type RollupStatus } from './status.ts';

export interface ResultInputs {
  runId: string;
  config: Record<string, unknown>;
  targetUrl: string;
  version: VersionInfo;
  clock: ServerClock;
  declared: string[];
  effective: string[];
  overridden: boolean;
  selection: { categories: string[]; cases: string[]; selected: number; total: number };
  cases: CaseResult[];
  spec: ReadonlyMap<string, Clause>;
  timings: { startedAt: number; finishedAt: number; casesMs: number; retirementMs: number };
  retirement: RetirementOutcome;
  /** Why the run stopped before it finished (a stage out of its budget); null when it finished. */
  unfinished: string | null;
  rerun: string;
  keptData?: KeptData;
}

function counts(cases: CaseResult[]): Record<CaseStatus, number> {
  const out = Object.fromEntries(CASE_STATUSES.map((s) => [s, 0])) as Record<CaseStatus, number>;
  for (const c of cases) out[c.status] += 1;
  return out;
}

export function buildResult(i: ResultInputs): ConformanceResult {
  const judged = i.cases.map((c) => ({
    ...c,
    failure_severity: c.failure_clause ? (i.spec.get(c.failure_clause)?.severity ?? null) : null,
  }));
  const clauses: ClauseResult[] = [...i.spec.values()].map((clause) => {
    const own = i.cases.filter((c) => c.clause === clause.id);
    const failedBy = i.cases.filter((c) => c.status === 'fail' && c.failure_clause === clause.id && c.clause !== clause.id);
    const statuses: RollupStatus[] = [...own.map((c) => c.status), ...failedBy.map(() => 'fail' as const)];
    return {
      id: clause.id,
      keyword: clause.keyword,
      severity: clause.severity,
      section: clause.section,
      status: rollUp(statuses),
      cases: own.map((c) => c.id),
      failed_by: failedBy.map((c) => c.id),
      exempt: EXEMPT_CLAUSES[clause.id] ?? null,
    };
  });
  const categories: CategoryResult[] = CATEGORY_NAMES.map((id) => {
    const own = i.cases.filter((c) => c.category === id);
    return { id, status: rollUp(own.map((c) => c.status)), counts: counts(own) };
  }).filter((c) => c.status !== 'unknown');
  const provenance = harnessProvenance();
  const required = [...i.spec.values()].filter((c) => c.severity === 'required').length;
  const complete = i.selection.categories.length === 0 && i.selection.cases.length === 0 && !i.overridden;
  return {
    schema: RESULT_SCHEMA,
    run_id: i.runId,
    harness: provenance,
    contract: { version: i.version.contract, revision: contractRevision(), clauses: i.spec.size, required_clauses: required },
    case_set: caseSetOf(i.cases.map((c) => c.id)),
    rerun: i.rerun,
    target: {
      url: i.targetUrl,
      version: i.version,
      clock: {
        offset_ms: i.clock.offsetMs,
        uncertainty_ms: Number.isFinite(i.clock.uncertaintyMs) ? i.clock.uncertaintyMs : null,
        source: i.clock.source,
      },
    },
    config: i.config,
    features: { declared: [...i.declared], effective: [...i.effective], overridden: i.overridden },
    selection: { complete, ...i.selection },
    timings: {
      started_at: new Date(i.timings.startedAt).toISOString(),
      finished_at: new Date(i.timings.finishedAt).toISOString(),
      duration_ms: i.timings.finishedAt - i.timings.startedAt,
      cases_ms: i.timings.casesMs,
      retirement_ms: i.timings.retirementMs,
    },
    // A failure found stands; short of one, a run that did not finish judged nothing.
    verdict: i.unfinished !== null && verdictOf(judged) !== 'non-conformant' ? 'could-not-judge' : verdictOf(judged),
    summary: { total: i.cases.length, ...counts(i.cases), blocking: judged.filter(blocksQualification).length },
    clauses,
    categories,
    // A failure quotes the clause it broke as this harness's spec.md words it.
    cases: i.cases.map((c) => {
      const text = c.status === 'fail' || c.status === 'error' ? i.spec.get(c.failure_clause ?? c.clause)?.text : undefined;
      return text === undefined ? c : { ...c, clause_text: text };
    }),
    retirement: i.retirement,
    ...(i.unfinished !== null ? { unfinished: i.unfinished } : {}),
    ...(i.keptData ? { kept_data: i.keptData } : {}),
  };
}
