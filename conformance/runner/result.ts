// The result document of a run: the source every report is rendered from.
// Its JSON Schema is reports/schemas/conformance-result.v1.schema.json; a
// change to its meaning gets a new schema id (INTERPRETING.md, versioning).
import type { Keyword, Severity } from '../../contract/clauses.ts';
import type { CaseSet } from '../../client/provenance.ts';
import type { VersionInfo } from '../../contract/records.ts';
import type { Exchange } from '../harness/exchange.ts';
import type { RetirementOutcome } from '../harness/retirement.ts';
import type { CaseStatus, RollupStatus, Verdict } from './status.ts';

export const RESULT_SCHEMA = 'fleetproof-conformance-result/v1';

export interface CaseResult {
  id: string;
  clause: string;
  category: string;
  severity: Severity | null;
  description: string;
  flags: string[];
  features: string[];
  status: CaseStatus;
  started_at: string | null;
  duration_ms: number;
  /** Why it failed, errored or was skipped; null on pass. */
  message: string | null;
  /** The clause the failure broke, when the case failed. */
  failure_clause: string | null;
  /** The request and response that showed the failure or error. */
  exchange: Exchange | null;
  exchange_count: number;
  /** The text of the clause a failure or error is reported against, as spec.md words it in this harness. */
  clause_text?: string;
  /** The exchange sent once more after every case ran, before the run's data was retired; informative, never a verdict. */
  replay?: ReplayOutcome;
}

/**
 * What sending a failure's exchange again answered: `reproduced` the same
 * status and error code (or no answer again); `differed` another answer;
 * `no-answer` none (indeterminate); `not-replayed` the exchange could not be
 * sent again as recorded (a deliberately broken token, a body recorded in
 * part) or the replays' time was spent.
 */
export interface ReplayOutcome {
  outcome: 'reproduced' | 'differed' | 'no-answer' | 'not-replayed';
  status: number | null;
  code: string | null;
  note: string | null;
}

/** Where a run that kept its data (--keep-data) left the list of its records, and the command that retires them. */
export interface KeptData {
  /** The file beside result.json that lists them; null when the run wrote no files. */
  records: string | null;
  retire: string;
}

export interface ClauseResult {
  id: string;
  keyword: Keyword;
  severity: Severity;
  section: string;
  status: RollupStatus;
  cases: string[];
  /** Cases whose failure broke this clause although they cite another. */
  failed_by: string[];
  exempt: string | null;
}

export interface CategoryResult {
  id: string;
  status: RollupStatus;
  counts: Record<CaseStatus, number>;
}

export interface ConformanceResult {
  schema: typeof RESULT_SCHEMA;
  run_id: string;
  harness: { name: string; version: string; commit: string; dirty: boolean | null; node: string };
  /** The contract the target declares, the revision this harness judged by (absent in older documents) and its clause counts. */
  contract: { version: string; revision?: string; clauses: number; required_clauses: number };
  /** The selected cases as one digest; absent in older documents. */
  case_set?: CaseSet;
  /** The command that reruns this run, secrets as placeholders; absent in older documents. */
  rerun?: string;
  target: {
    url: string;
    version: VersionInfo;
    clock: { offset_ms: number; uncertainty_ms: number | null; source: string };
  };
  config: Record<string, unknown>;
  features: { declared: string[]; effective: string[]; overridden: boolean };
  selection: { complete: boolean; categories: string[]; cases: string[]; selected: number; total: number };
  timings: { started_at: string; finished_at: string; duration_ms: number; cases_ms: number; retirement_ms: number };
  verdict: Verdict;
  summary: Record<CaseStatus, number> & { total: number; blocking: number };
  clauses: ClauseResult[];
  categories: CategoryResult[];
  cases: CaseResult[];
  retirement: RetirementOutcome;
  /** Set when the run stopped before it finished: the stage out of its budget and what was outstanding. */
  unfinished?: string;
  /** Present when the run kept its data instead of retiring it. */
  kept_data?: KeptData;
}
