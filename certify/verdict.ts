// The verdict of a certification, and its re-derivation from the stored
// result documents. `fleetproof verify` re-derives it from the files a bundle
// signs, so a verdict can never say more than its results support.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clauses } from '../contract/clauses.ts';
import type { ConformanceResult } from '../conformance/runner/result.ts';
import { verdictOf } from '../conformance/runner/status.ts';
import { isStatedNotProvocable } from '../conformance/harness/failure.ts';
import type { ResultDocument as PropertiesDocument } from '../properties/runner/result-document.ts';
import { undecidedVerdict, type LoadReport } from '../load/runner/load-report.ts';
import { EXIT } from '../client/errors.ts';
import type { FaultsDocument } from '../reports/schemas/faults-result.ts';
import {
  RESULT_FILE,
  STAGE_NAMES,
  type CertificationResult,
  type StageName,
  type StageRecord,
  type StageStatus,
  type Verdict,
} from '../reports/schemas/certification-result.ts';

/** A definite defect outranks an inconclusive stage; qualified needs every stage passed. */
export function overallVerdict(stages: ReadonlyArray<Pick<StageRecord, 'status'>>): Verdict {
  if (stages.some((s) => s.status === 'failed')) return 'non-conformant';
  if (stages.length === 0 || stages.some((s) => s.status !== 'passed')) return 'could-not-run';
  return 'qualified';
}

export function conformanceStatus(result: ConformanceResult): StageStatus {
  const spec = clauses();
  const judged = result.cases.map((c) => ({
    ...c,
    failure_severity: c.failure_clause ? (spec.get(c.failure_clause)?.severity ?? null) : null,
  }));
  const verdict = verdictOf(judged);
  if (verdict === 'non-conformant') return 'failed';
  if (verdict === 'could-not-judge') return 'could-not-run';
  // Qualification may rest on an unexercised MUST clause only where no client can exercise it (an exemption with its reason),
  // or where every case citing it was not provocable for a reason the run states (the limits the target declares, the
  // vendor's own credentials without the trusted key); the grounds then name the clause with that reason.
  const statedSkip = (id: string) =>
    result.cases.filter((c) => c.clause === id).every((c) => c.status === 'skip' && isStatedNotProvocable(c.message));
  if (
    result.clauses.some(
      (c) => c.severity === 'required' && c.exempt === null && (c.status === 'unknown' || (c.status === 'skip' && !statedSkip(c.id))),
    )
  )
    return 'could-not-run';
  // A certification judges the whole suite; a partial selection qualifies nothing.
  return result.selection.complete && result.cases.length > 0 ? 'passed' : 'could-not-run';
}

export function propertiesStatus(doc: PropertiesDocument): StageStatus {
  if (doc.suites.some((s) => s.status === 'fail')) return 'failed';
  return doc.suites.length > 0 && doc.suites.every((s) => s.status === 'pass') ? 'passed' : 'could-not-run';
}

/** A counterexample under faults is a defect; a stage that could not fault or judge says so. */
export function faultsStatus(doc: FaultsDocument): StageStatus {
  if (doc.properties?.suites.some((s) => s.status === 'fail') || (doc.sweep?.violations.length ?? 0) > 0) return 'failed';
  if (doc.error !== null || !doc.properties) return 'could-not-run';
  return propertiesStatus(doc.properties);
}

const COMPARISON = /(<=|>=|==|!=|<|>)\s*(-?[0-9]+(?:\.[0-9]+)?)\s*$/;

/** Whether a threshold's recorded value satisfies its expression, e.g. `p(99)<3000`. */
export function thresholdHolds(expression: string, value: number | null): boolean {
  const m = COMPARISON.exec(expression);
  if (!m || value === null) return false;
  const limit = Number(m[2]);
  switch (m[1]) {
    case '<':
      return value < limit;
    case '<=':
      return value <= limit;
    case '>':
      return value > limit;
    case '>=':
      return value >= limit;
    case '==':
      return value === limit;
    default:
      return value !== limit;
  }
}

/**
 * The report's own rule: a violation the audit read back fails, whatever
 * else went wrong, unless the dataset was never seeded; otherwise a run that
 * could not run as planned or could not judge (the engine crashed or is
 * missing, the seed could not be written, the target went away, the audit
 * could not read) judges nothing; only then do thresholds and phase checks,
 * re-judged from their recorded values, decide.
 */
export function loadStatus(report: LoadReport): StageStatus {
  // The report weighs an audited violation against a run that never seeded its dataset; its undecided verdict stands.
  if (undecidedVerdict(report.verdict)) return 'could-not-run';
  if (report.audit?.invariants.some((i) => !i.ok)) return 'failed';
  if (report.audit === null || report.audit.errors.length > 0) return 'could-not-run';
  // An engine that neither finished (0) nor crossed a threshold (k6's 99) failed to run: no evidence, whatever the summary says.
  if (report.engine_exit_code !== 0 && report.engine_exit_code !== EXIT.thresholdsCrossed) return 'could-not-run';
  if (report.phases.some((p) => p.status === 'error')) return 'could-not-run';
  const thresholds = report.thresholds.every((t) => thresholdHolds(t.expression, t.value));
  const checks = report.phases.every((p) => (p.status ?? (p.checks_ok ? 'pass' : 'fail')) === 'pass');
  return thresholds && checks ? 'passed' : 'failed';
}

async function readJson<T>(dir: string, file: string): Promise<T> {
  return JSON.parse(await readFile(join(dir, file), 'utf8')) as T;
}

const JUDGES: Record<StageName, (doc: never) => StageStatus> = {
  conformance: conformanceStatus as (doc: never) => StageStatus,
  properties: propertiesStatus as (doc: never) => StageStatus,
  faults: faultsStatus as (doc: never) => StageStatus,
  load: loadStatus as (doc: never) => StageStatus,
};

/**
 * Re-judges every stage from its stored document and the run from its
 * stages. A result.json that cannot be read, or that does not list each of
 * the four stages once, derives no verdict: it is a problem, not a crash.
 */
export async function rederiveVerdict(dir: string): Promise<{ verdict: Verdict | null; problems: string[] }> {
  const problems: string[] = [];
  let result: CertificationResult;
  try {
    result = await readJson<CertificationResult>(dir, RESULT_FILE);
  } catch (err) {
    return { verdict: null, problems: [`cannot read ${RESULT_FILE}: ${(err as Error).message}`] };
  }
  const names = Array.isArray(result?.stages) ? result.stages.map((s) => s?.name) : null;
  if (names === null || names.length !== STAGE_NAMES.length || STAGE_NAMES.some((n) => !names.includes(n))) {
    return {
      verdict: null,
      problems: [`${RESULT_FILE} lists the stages ${JSON.stringify(names)}, not each of ${STAGE_NAMES.join(', ')} once`],
    };
  }
  const stages: Array<Pick<StageRecord, 'status'>> = [];
  for (const stage of result.stages) {
    let status: StageStatus = stage.status === 'skipped' ? 'skipped' : 'could-not-run';
    if (stage.result_file) {
      try {
        status = JUDGES[stage.name](await readJson<never>(dir, stage.result_file));
      } catch (err) {
        problems.push(`${stage.name}: cannot read ${stage.result_file}: ${(err as Error).message}`);
      }
    }
    if (status !== stage.status) problems.push(`${stage.name}: the stored results say ${status}, result.json says ${stage.status}`);
    stages.push({ status });
  }
  const verdict = overallVerdict(stages);
  if (verdict !== result.verdict) problems.push(`result.json claims ${result.verdict}, its stages give ${verdict}`);
  return { verdict, problems };
}
