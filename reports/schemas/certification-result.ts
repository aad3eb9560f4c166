// The certification result (fleetproof-certification-result/v1): one run's
// verdict over the three stages, with what covers each clause and how to
// reproduce every failure. Each stage also keeps its own result document in
// its subdirectory; this document points at them and is what the report
// pages are rendered from. JSON Schema: reports/schemas/certification-result.v1.schema.json.
import type { Keyword, Severity } from '../../contract/clauses.ts';
import type { VersionInfo } from '../../contract/records.ts';
import type { CaseSet } from '../../client/provenance.ts';
import type { KeptData } from '../../conformance/runner/result.ts';

export const CERTIFICATION_SCHEMA = 'fleetproof-certification-result/v1';
export const RESULT_FILE = 'result.json';

export type Verdict = 'qualified' | 'non-conformant' | 'could-not-run';
export type StageName = 'conformance' | 'properties' | 'faults' | 'load';
export const STAGE_NAMES: readonly StageName[] = ['conformance', 'properties', 'faults', 'load'];

/** passed: the stage holds; failed: it found a defect; could-not-run: it gave no verdict; skipped: not reached. */
export type StageStatus = 'passed' | 'failed' | 'could-not-run' | 'skipped';

export interface StageRecord {
  name: StageName;
  status: StageStatus;
  /** Why the stage did not pass, one line each. */
  reasons: string[];
  duration_ms: number;
  /** The stage's own result document, relative to the run directory. */
  result_file: string | null;
  /** A few figures for the summary table. */
  figures: Record<string, string | number>;
  /** What the stage did not run, each with why; never a reason the stage did not pass. */
  skips?: StageSkip[];
}

export interface StageSkip {
  subject: string;
  clause: string;
  reason: string;
}

export interface ClauseCoverage {
  id: string;
  keyword: Keyword;
  severity: Severity;
  section: string;
  /** Worst outcome over what covers it: pass, fail, error, skip, or unknown when nothing ran. */
  status: 'pass' | 'fail' | 'error' | 'skip' | 'unknown';
  cases: Array<{ id: string; status: string }>;
  properties: Array<{ suite: string; status: string }>;
}

export interface Failure {
  stage: StageName;
  /** A case id, a property suite, a threshold or an audit invariant. */
  subject: string;
  clause: string | null;
  message: string;
  /** A shell command (or, for a case, the exchange) that reproduces it. */
  reproduce: string;
  /** What failures of one defect share (the same error on the same operation); reports group by it. */
  cause?: string;
  /** The text of the clause, as spec.md words it in this harness. */
  clause_text?: string;
}

export interface Environment {
  node: string;
  platform: string;
  arch: string;
  cpus: { model: string; count: number };
  memory_bytes: number;
  postgres: string | null;
}

export interface CertificationResult {
  schema: typeof CERTIFICATION_SCHEMA;
  run_id: string;
  started_at: string;
  finished_at: string;
  harness: { name: string; version: string; commit: string };
  contract: string;
  target: { url: string; embedded: boolean; store: 'memory' | 'postgres' | null; version: VersionInfo | null };
  profile: string;
  environment: Environment;
  verdict: Verdict;
  /** What the verdict rests on, shown right after it: the load profile, and the MUST clauses no check exercised. */
  grounds?: string[];
  reasons: string[];
  stages: StageRecord[];
  clauses: ClauseCoverage[];
  failures: Failure[];
  /** The contract revision the run judged by (openapi.yaml info.version); absent in older documents. */
  contract_revision?: string;
  /** Every case, property suite and audit invariant the stages ran, and the load profile, as one digest. */
  case_set?: CaseSet;
  /** The command that reruns this certification, secrets as placeholders. */
  rerun?: string;
  /** Present when the run kept the conformance stage's records (--keep-data). */
  kept_data?: KeptData;
}
