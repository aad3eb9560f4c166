// `fleetproof load` end to end: resolve the profile, mint the tokens, run
// load/scale.js on k6 or the Node runner, audit the target, write the
// report and the run's mergeable histograms. Exit 0 when every threshold,
// phase check and invariant holds, 1 otherwise, 2 when the run cannot start.
// One part of a distributed run runs on the run's shared plan instead and
// leaves the audit to the merge, which sees every part's routes.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, resolve as resolvePath } from 'node:path';
import { buildLoadReport, type EngineSummary, type LoadReport } from './load-report.ts';
import { writeSummary, type ReportWriter } from './write-summary.ts';
import { loadSigningKey, type SigningKey } from '../../contract/tokens.ts';
import { auditAndRetire, type AfterLoad } from './audit-and-retire.ts';
import { chooseEngine, runEngine, type EngineChoice } from './engines.ts';
import { captureEnvironment, targetVersion } from './environment.ts';
import { readJournal } from './journal.ts';
import { buildRunPlan, PlanError, readRunPlan, writeRunPlan, type RunPlan } from './run-plan.ts';
import { ContractError, loadScaleContract, resolveProfile, type ResolvedProfile } from './scale-contract.ts';
import { METRICS_FILE, writeRunMetrics } from './run-metrics.ts';
import { fileURLToPath } from 'node:url';

export interface LoadRunOptions {
  target: string;
  /** Unused with `planPath`: the plan carries the tokens. */
  keyPath: string;
  profile: string;
  /**
   * Run as one part of a distributed run, on its shared plan (written by
   * writeSharedPlan): target, profile and tokens come from the plan, and the
   * audit and retirement wait for `fleetproof report --merge --plan`.
   */
  planPath?: string;
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
  /** Writes the report into the run directory; summary.json alone unless the caller brings renderers. */
  writeReport?: ReportWriter<LoadReport>;
  /** Runs after the load, before the audit: a nemesis heals here, so the audit reads a mended registry. */
  beforeAudit?: () => Promise<void>;
}

export interface LoadRunOutcome {
  exitCode: 0 | 1 | 2;
  message: string;
  outDir?: string;
  report?: LoadReport;
}

const REPORTS_DIR = fileURLToPath(new URL('../../reports/runs/', import.meta.url));

/** The profile and signing key of a fresh run, or why it cannot start. */
async function prepareFresh(o: Omit<LoadRunOptions, 'planPath'>): Promise<{ profile: ResolvedProfile; key: SigningKey } | LoadRunOutcome> {
  let profile: ResolvedProfile;
  try {
    profile = resolveProfile(loadScaleContract(), o.profile, o.sets ?? [], o.durationS, o.phases);
  } catch (err) {
    if (err instanceof ContractError) return { exitCode: 2, message: err.message };
    throw err;
  }
  try {
    return { profile, key: await loadSigningKey(o.keyPath) };
  } catch (err) {
    return { exitCode: 2, message: (err as Error).message };
  }
}

/** Writes the plan every instance of a distributed run shares; it holds bearer tokens (mode 0600). */
export async function writeSharedPlan(o: Omit<LoadRunOptions, 'planPath'>, path: string): Promise<LoadRunOutcome> {
  const prepared = await prepareFresh(o);
  if ('exitCode' in prepared) return prepared;
  if ((await targetVersion(o.target)) === null) return { exitCode: 2, message: `the target ${o.target} does not answer GET /version` };
  const plan = await buildRunPlan({ target: o.target, profile: prepared.profile, key: prepared.key });
  await writeRunPlan(path, plan);
  return { exitCode: 0, message: `run ${plan.run_id} (${plan.profile.name}): plan written to ${path}; it holds bearer tokens until ${new Date(plan.lease_until_ms).toISOString()}` };
}

export async function runLoad(o: LoadRunOptions): Promise<LoadRunOutcome> {
  const part = o.planPath !== undefined;
  let plan: RunPlan;
  if (o.planPath !== undefined) {
    try {
      plan = await readRunPlan(o.planPath);
    } catch (err) {
      if (err instanceof PlanError) return { exitCode: 2, message: err.message };
      throw err;
    }
  } else {
    const prepared = await prepareFresh(o);
    if ('exitCode' in prepared) return prepared;
    plan = await buildRunPlan({ target: o.target, profile: prepared.profile, key: prepared.key });
  }
  const target = plan.target;
  const profile = plan.profile;
  const engine = chooseEngine(o.engine ?? 'auto');
  if ('unavailable' in engine) return { exitCode: 2, message: engine.unavailable };
  const version = await targetVersion(target);
  if (version === null) return { exitCode: 2, message: `the target ${target} does not answer GET /version` };

  const startedAt = new Date();
  const outDir = o.outDir ?? join(REPORTS_DIR, `load-${profile.name}-${plan.run_id}`);
  // k6 opens the file relative to the script unless the path is absolute.
  const runFile = o.planPath !== undefined ? resolvePath(o.planPath) : join(outDir, 'run-plan.json');
  const summaryFile = join(outDir, 'engine-summary.json');
  const journalFile = join(outDir, 'journal.ndjson');
  const metricsFile = join(outDir, METRICS_FILE);
  await mkdir(outDir, { recursive: true });
  if (!part) await writeRunPlan(runFile, plan);
  let run;
  try {
    run = await runEngine({ engine, env: { FLEETPROOF_RUN_FILE: runFile, FLEETPROOF_SUMMARY_FILE: summaryFile }, journalPath: journalFile, metricsPath: metricsFile, quiet: o.quiet ?? false });
  } finally {
    // The plan holds bearer tokens; they stay in memory for the audit only.
    // A shared plan belongs to the user, who hands it to the merge.
    if (!part) await rm(runFile, { force: true });
  }
  const summary = await readFile(summaryFile, 'utf8').then(
    (t) => JSON.parse(t) as EngineSummary,
    () => null,
  );
  const journal = await readJournal(journalFile);
  await o.beforeAudit?.();
  // Other parts may still hold routes: only the merge, after all of them, can audit.
  const after: AfterLoad = part ? { audit: null, error: null, retirement: null } : await auditAndRetire(plan, journal, o.keepData ?? false);
  const report = buildLoadReport({
    summary,
    journal,
    audit: after.audit,
    environment: captureEnvironment(engine, target, version),
    engineExitCode: run.exitCode,
    engineError: run.error ?? after.error,
    runId: plan.run_id,
    profile: profile.name,
    overrides: profile.overrides,
    dataset: { ...profile.dataset },
    startedAt,
    finishedAt: new Date(),
    retirement: after.retirement,
    ...(part ? { auditMissing: `part of distributed run ${plan.run_id}: the audit runs when the parts are merged (fleetproof report --merge DIR... --plan FILE)` } : {}),
  });
  const write: ReportWriter<LoadReport> = o.writeReport ?? writeSummary;
  const files = await write(outDir, report);
  // The histograms serve a later merge; a run whose engine wrote no points still has its report.
  let histogramNote = '';
  try {
    await writeRunMetrics({
      outDir,
      runId: plan.run_id,
      profile,
      engine,
      target,
      startedAt: report.started_at,
      finishedAt: report.finished_at,
      testRunDurationMs: summary?.test_run_duration_ms ?? null,
    });
  } catch (err) {
    histogramNote = `; no histograms.json: ${(err as Error).message}`;
  }
  if (part) {
    // A part's thresholds cover its share only; the merge evaluates them once, globally (k6 exits 99 on its own verdict).
    const ran = run.exitCode === 0 || run.exitCode === 99;
    return { exitCode: ran ? 0 : 1, outDir, report, message: `${ran ? 'part written' : 'part FAILED'}: ${profile.name} run ${plan.run_id} in ${outDir}${run.error ? ` (${run.error})` : ''}; merge the parts with fleetproof report --merge DIR... --plan ${o.planPath}${histogramNote}` };
  }
  const exitCode = report.verdict === 'pass' ? 0 : 1;
  return { exitCode, outDir, report, message: `${report.verdict.toUpperCase()} ${profile.name} run ${plan.run_id}; report ${files.html ?? files.json}${histogramNote}` };
}
