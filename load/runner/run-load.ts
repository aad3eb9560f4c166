// `fleetproof load` end to end: resolve the profile, mint the tokens, run
// load/scale.js on k6 or the Node runner, audit the target, write the
// report and the run's mergeable histograms. Exit 0 when every threshold,
// phase check and invariant holds, 1 otherwise, 2 when the run cannot start.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildLoadReport, type EngineSummary, type LoadReport } from '../../reports/load/load-report.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { loadSigningKey } from '../../contract/tokens.ts';
import { auditRun, type AuditResult } from './audit.ts';
import { chooseEngine, runEngine, type EngineChoice } from './engines.ts';
import { captureEnvironment, targetVersion } from './environment.ts';
import { readJournal } from './journal.ts';
import { buildRunPlan, writeRunPlan } from './run-plan.ts';
import { ContractError, loadScaleContract, resolveProfile } from './scale-contract.ts';
import { retireRun, type Retirement } from './retire.ts';
import { METRICS_FILE, writeRunMetrics } from './run-metrics.ts';
import { replicaIdsOfRun } from './run-replicas.ts';
import { fileURLToPath } from 'node:url';

export interface LoadRunOptions {
  target: string;
  keyPath: string;
  profile: string;
  engine?: EngineChoice;
  sets?: string[];
  /** Run only these phases (and the seed). */
  phases?: string[];
  durationS?: number;
  /** Where the report goes; default reports/runs/load-<profile>-<run id>. */
  outDir?: string;
  /** No progress or engine output on the terminal. */
  quiet?: boolean;
  /** Leave the run's records as they are instead of retiring them. */
  keepData?: boolean;
}

export interface LoadRunOutcome {
  exitCode: 0 | 1 | 2;
  message: string;
  outDir?: string;
  report?: LoadReport;
}

const REPORTS_DIR = fileURLToPath(new URL('../../reports/runs/', import.meta.url));

export async function runLoad(o: LoadRunOptions): Promise<LoadRunOutcome> {
  let profile;
  try {
    profile = resolveProfile(loadScaleContract(), o.profile, o.sets ?? [], o.durationS, o.phases);
  } catch (err) {
    if (err instanceof ContractError) return { exitCode: 2, message: err.message };
    throw err;
  }
  let key;
  try {
    key = await loadSigningKey(o.keyPath);
  } catch (err) {
    return { exitCode: 2, message: (err as Error).message };
  }
  const engine = chooseEngine(o.engine ?? 'auto');
  if ('unavailable' in engine) return { exitCode: 2, message: engine.unavailable };
  const version = await targetVersion(o.target);
  if (version === null) return { exitCode: 2, message: `the target ${o.target} does not answer GET /version` };

  const startedAt = new Date();
  const plan = await buildRunPlan({ target: o.target, profile, key });
  const outDir = o.outDir ?? join(REPORTS_DIR, `load-${profile.name}-${plan.run_id}`);
  const runFile = join(outDir, 'run-plan.json');
  const summaryFile = join(outDir, 'engine-summary.json');
  const journalFile = join(outDir, 'journal.ndjson');
  const metricsFile = join(outDir, METRICS_FILE);
  await mkdir(outDir, { recursive: true });
  await writeRunPlan(runFile, plan);
  let run;
  try {
    run = await runEngine({ engine, env: { FLEETPROOF_RUN_FILE: runFile, FLEETPROOF_SUMMARY_FILE: summaryFile }, journalPath: journalFile, metricsPath: metricsFile, quiet: o.quiet ?? false });
  } finally {
    // The plan holds bearer tokens; they stay in memory for the audit only.
    await rm(runFile, { force: true });
  }
  const summary = await readFile(summaryFile, 'utf8').then(
    (t) => JSON.parse(t) as EngineSummary,
    () => null,
  );
  const journal = await readJournal(journalFile);
  let audit: AuditResult | null = null;
  let auditError: string | null = null;
  let retirement: Retirement | null = null;
  try {
    const audited = await auditRun({ plan, journal, replicaIds: replicaIdsOfRun(plan, journal) });
    audit = audited.result;
    // Retire only after the audit has read the state it checks.
    if (!o.keepData) retirement = await retireRun(plan, audited.replicas);
  } catch (err) {
    auditError = (err as Error).message;
  }
  const report = buildLoadReport({
    summary,
    journal,
    audit,
    environment: captureEnvironment(engine, o.target, version),
    engineExitCode: run.exitCode,
    engineError: run.error ?? auditError,
    runId: plan.run_id,
    profile: profile.name,
    overrides: profile.overrides,
    dataset: { ...profile.dataset },
    startedAt,
    finishedAt: new Date(),
    retirement,
  });
  const files = await writeLoadReport(outDir, report);
  // The histograms serve a later merge; a run whose engine wrote no points still has its report.
  let histogramNote = '';
  try {
    await writeRunMetrics({
      outDir,
      runId: plan.run_id,
      profile,
      engine,
      target: o.target,
      startedAt: report.started_at,
      finishedAt: report.finished_at,
      testRunDurationMs: summary?.test_run_duration_ms ?? null,
    });
  } catch (err) {
    histogramNote = `; no histograms.json: ${(err as Error).message}`;
  }
  const exitCode = report.verdict === 'pass' ? 0 : 1;
  return { exitCode, outDir, report, message: `${report.verdict.toUpperCase()} ${profile.name} run ${plan.run_id}; report ${files.html}${histogramNote}` };
}
