// result.json of a property run, versioned `fleetproof-properties-result/v1`
// (JSON Schema: reports/schemas/properties-result.v1.schema.json). It holds
// everything a failure needs to be replayed exactly — the seed, the path and
// the command that takes both — and the shrunk counterexample as a script.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { caseSetOf, contractRevision, harnessProvenance, type CaseSet } from '../../client/provenance.ts';
import type { VerdictKey } from '../../client/verdict-words.ts';
import { PROPERTIES, type PropertyName } from '../check/violations.ts';
import type { ReplayCommand } from './failure-report.ts';
import { exitCodeOf, type PropertiesResult, type SuiteResult } from './run-properties.ts';

export const RESULT_SCHEMA = 'fleetproof-properties-result/v1';
export const RESULT_FILE = 'result.json';

/** How to replay one suite's counterexample, from the shell and from the tests. */
export interface Replay {
  command: string;
  env: { FC_SEED: string; FC_SUITE: string; FC_PATH: string };
}

interface SuiteDocument {
  name: string;
  property: PropertyName;
  property_title: string;
  status: SuiteResult['status'];
  runs: number;
  indeterminate_runs: number;
  shrinks: number;
  duration_ms: number;
  seed: number;
  path: string | null;
  violation: { property: PropertyName; property_title: string; message: string } | null;
  counterexample: string[] | null;
  replay: Replay | null;
  error: string | null;
}

export interface ResultDocument {
  schema: typeof RESULT_SCHEMA;
  run_id: string;
  harness: { name: string; version: string; commit?: string };
  /** The contract revision the run judged by; absent in documents of older harnesses. */
  contract_revision?: string;
  /** The suites the run ran, as one digest. */
  case_set?: CaseSet;
  /** The command that reruns this run with its seed, secrets as placeholders. */
  rerun?: string;
  target: PropertiesResult['target'];
  seed: { value: number; source: PropertiesResult['seed']['source']; derived_from?: string };
  started_at: string;
  finished_at: string;
  verdict: 'hold' | 'counterexample' | 'error';
  exit_code: 0 | 1 | 2;
  /** What bounded the run: its budget, and the largest answer read from a registry over HTTP. */
  settings: { budget_ms: number | null; answer_limit_bytes: number | null };
  /** Set when the suites stopped before all had run: the stage out of its budget and the suites outstanding. */
  unfinished?: string;
  suites: SuiteDocument[];
}

/** The run's verdict in the common words: every property held, a counterexample, or no judgement. */
export function propertiesVerdictKey(verdict: ResultDocument['verdict']): VerdictKey {
  return verdict === 'hold' ? 'qualified' : verdict === 'counterexample' ? 'non-conformant' : 'could-not-run';
}

export function replayOf(s: SuiteResult, command: ReplayCommand): Replay | null {
  if (s.path === null) return null;
  return { command: command(s), env: { FC_SEED: String(s.seed), FC_SUITE: s.name, FC_PATH: s.path } };
}

/** `rerun`: the command that runs the same suites against the same target with the run's seed. */
export async function resultDocument(result: PropertiesResult, command: ReplayCommand, rerun?: string): Promise<ResultDocument> {
  const exit = exitCodeOf(result);
  const harness = harnessProvenance(['properties', 'contract']);
  return {
    schema: RESULT_SCHEMA,
    run_id: result.runId,
    harness: { name: 'fleetproof', version: harness.version, commit: harness.commit },
    contract_revision: contractRevision(),
    case_set: caseSetOf(result.suites.map((s) => s.name)),
    ...(rerun ? { rerun } : {}),
    target: result.target,
    seed: { value: result.seed.seed, source: result.seed.source, ...(result.seed.from ? { derived_from: result.seed.from } : {}) },
    started_at: result.startedAt,
    finished_at: result.finishedAt,
    verdict: exit === 0 ? 'hold' : exit === 1 ? 'counterexample' : 'error',
    exit_code: exit,
    settings: { budget_ms: result.budgetMs, answer_limit_bytes: result.answerLimitBytes },
    ...(result.unfinished !== null ? { unfinished: result.unfinished } : {}),
    suites: result.suites.map((s) => ({
      name: s.name,
      property: s.property,
      property_title: PROPERTIES[s.property],
      status: s.status,
      runs: s.runs,
      indeterminate_runs: s.indeterminateRuns,
      shrinks: s.shrinks,
      duration_ms: s.durationMs,
      seed: s.seed,
      path: s.path,
      violation: s.violation ? { ...s.violation, property_title: PROPERTIES[s.violation.property] } : null,
      counterexample: s.counterexample,
      replay: replayOf(s, command),
      error: s.error,
    })),
  };
}

export async function writeResultDocument(dir: string, doc: ResultDocument): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, RESULT_FILE);
  await writeFile(file, JSON.stringify(doc, null, 2) + '\n');
  return file;
}
