// `fleetproof load` end to end: resolve the profile, mint the tokens, run
// load/scale.js on k6 or the Node runner, audit the target, write the
// report and the run's mergeable histograms. Exit 0 when every threshold,
// phase check and invariant holds, 99 when only thresholds were crossed, 1
// otherwise, 2 when the run cannot start (exit-code.ts).
// One part of a distributed run runs on the run's shared plan instead and
// leaves the audit to the merge, which sees every part's routes.
import { rmSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { buildLoadReport, loadVerdictWords, type EngineSummary, type LoadReport } from './load-report.ts';
import { defaultRunDir } from '../../client/run-id.ts';
import { writeSummary, type ReportWriter } from './write-summary.ts';
import {
  CLOCK_BOUND_MS,
  givenTokens,
  preflight,
  recheck,
  targetVersionInfo,
  type PreflightResult,
  type TokenSource,
} from '../../client/preflight.ts';
import { loadSigningKey, type SigningKey } from '../../contract/tokens.ts';
import { JWKS_FILE } from '../../contract/token-defaults.ts';
import { CredentialSourceError, hasOwnCredentials, type CredentialChoice } from '../../client/credential-sources.ts';
import { auditAndRetire, type AfterLoad } from './audit-and-retire.ts';
import { chooseEngine, runEngine, type EngineChoice } from './engines.ts';
import { Budget } from '../../client/stage-budget.ts';
import { loadBudgetMs } from './load-budget.ts';
import { captureEnvironment, loadAverageNow } from './environment.ts';
import { fitProfileToMachine } from './fit-to-machine.ts';
import { commandLine, credentialArgs } from '../../client/rerun.ts';
import { readJournal } from './journal.ts';
import { buildRunPlan, readRunPlan, writeRunPlan, type RunPlan } from './run-plan.ts';
import { limitProblems, type RegistryLimits } from '../../contract/records.ts';
import { fitProfileToLimits } from './fit-to-limits.ts';
import { loadScaleContract, resolveProfile, type ResolvedProfile } from './scale-contract.ts';
import { METRICS_FILE, writeRunMetrics } from './run-metrics.ts';
import type { SegmentChoice } from './execution-segments.ts';
import { phasesElsewhere } from './phases-elsewhere.ts';
import { breakpointCurve, type BreakpointResult } from './breakpoint.ts';
import { readRunOutput } from './run-output.ts';
import { loadExitCode } from './exit-code.ts';
import { FleetproofError, outcomeOf, type ExitCode, type HarnessErrorCode } from '../../client/errors.ts';

export interface LoadRunOptions {
  target: string;
  /** Unused with `planPath`: the plan carries the tokens; '' when `auth` brings them. */
  keyPath: string;
  /** A token command or static headers, asked once per caller before the run. */
  auth?: CredentialChoice;
  profile: string;
  /**
   * Run as one part of a distributed run, on its shared plan (written by
   * writeSharedPlan): target, profile and tokens come from the plan, and the
   * audit and retirement wait for `fleetproof report --merge --plan`.
   */
  planPath?: string;
  engine?: EngineChoice;
  /** With `planPath`: the share of the test this part runs (k6 execution segment and sequence). */
  segment?: SegmentChoice;
  sets?: string[];
  /** Run only these phases (and the seed). */
  phases?: string[];
  durationS?: number;
  /** The run id of a run that is part of a larger one (a certification); a new id otherwise. */
  runId?: string;
  /** Where the report goes; default reports/runs/<run id>. */
  outDir?: string;
  /** No progress or engine output on the terminal. */
  quiet?: boolean;
  /** Leave the run's records as they are instead of retiring them. */
  keepData?: boolean;
  /** Writes the report into the run directory; summary.json alone unless the caller brings renderers. */
  writeReport?: ReportWriter<LoadReport>;
  /**
   * Aborted when the user stops the run (Ctrl-C): the load stops as at the
   * end of its budget, the audit and the retirement still run, and the
   * report says the run was interrupted. Its reason names the signal.
   */
  interrupt?: AbortSignal;
  /** Runs after the preflight, as the engine starts writing the journal there: a nemesis arms itself here. */
  onLoadStart?: (journalPath: string) => void;
  /** Runs after the load, before the audit: a nemesis heals here, so the audit reads a mended registry. */
  beforeAudit?: () => Promise<void>;
  /** The engine's budget (--budget load=DURATION); scaled from the profile otherwise (load-budget.ts). */
  budgetMs?: number;
  /** Flags a wrapper adds to the rerun command (the nemesis it ran under). */
  rerunFlags?: string[];
  /** The target a rerun names, when the run reached it through something in front of it (the nemesis's proxy). */
  rerunTarget?: string;
}

/** The command that reruns a load run as these options ran it, secrets as placeholders. */
export function loadRerun(o: LoadRunOptions): string {
  if (o.planPath !== undefined)
    return commandLine('load', [
      '--plan',
      o.planPath,
      ...(o.segment ? ['--segment', o.segment.segment] : []),
      ...(o.segment?.sequence ? ['--segment-sequence', o.segment.sequence] : []),
    ]);
  const args = [
    '--target',
    o.rerunTarget ?? o.target,
    ...credentialArgs({
      keyFile: o.keyPath === '' ? null : o.keyPath,
      tokenCommand: o.auth?.tokenCommand !== undefined,
      headerNames: (o.auth?.headers ?? []).map((h) => h.split(':')[0]!.trim()),
    }),
    '--profile',
    o.profile,
    ...(o.engine && o.engine !== 'auto' ? ['--engine', o.engine] : []),
    ...(o.sets ?? []).flatMap((s) => ['--set', s]),
    ...(o.phases?.length ? ['--phases', o.phases.join(',')] : []),
    ...(o.durationS !== undefined ? ['--duration', `${o.durationS}s`] : []),
    ...(o.keepData ? ['--keep-data'] : []),
    ...(o.budgetMs !== undefined ? ['--budget', `load=${o.budgetMs / 1000}s`] : []),
    ...(o.rerunFlags ?? []),
  ];
  return commandLine('load', args);
}

export interface LoadRunOutcome {
  /** 0 held, 1 a defect, 2 could not run, 99 thresholds crossed (exit-code.ts). */
  exitCode: ExitCode;
  message: string;
  /** The stable code of the error that stopped the run before its report (docs/exit-codes.md). */
  code?: HarnessErrorCode;
  outDir?: string;
  report?: LoadReport;
}

/** The profile and signing key of a fresh run, or why it cannot start. */
async function prepareFresh(
  o: Omit<LoadRunOptions, 'planPath'>,
): Promise<{ profile: ResolvedProfile; key: SigningKey | null; limits: RegistryLimits }> {
  const profile = resolveProfile(loadScaleContract(), o.profile, o.sets ?? [], o.durationS, o.phases);
  // Every size the run uses comes from the limits the target declares.
  const version = await targetVersionInfo(o.target);
  const problems = version.limits ? limitProblems(version.limits) : ['no limits'];
  if (problems.length > 0)
    throw new FleetproofError('FP_ERR_VERSION', `the target ${o.target} declares limits the run cannot size by: ${problems.join('; ')}`);
  const fitted = fitProfileToLimits(profile, version.limits!);
  // A token command or static headers authenticate the run without a signing key.
  if (o.keyPath === '' && o.auth && hasOwnCredentials(o.auth)) return { profile: fitted, key: null, limits: version.limits! };
  try {
    return { profile: fitted, key: await loadSigningKey(o.keyPath), limits: version.limits! };
  } catch (err) {
    throw new CredentialSourceError((err as Error).message, { cause: err });
  }
}

/** Writes the plan every instance of a distributed run shares; it holds bearer tokens (mode 0600). */
export async function writeSharedPlan(o: Omit<LoadRunOptions, 'planPath'>, path: string): Promise<LoadRunOutcome> {
  try {
    return await writePlanOrThrow(o, path);
  } catch (err) {
    return outcomeOf(err);
  }
}

async function writePlanOrThrow(o: Omit<LoadRunOptions, 'planPath'>, path: string): Promise<LoadRunOutcome> {
  const prepared = await prepareFresh(o);
  const plan = await buildRunPlan({
    target: o.target,
    profile: prepared.profile,
    key: prepared.key,
    limits: prepared.limits,
    ...(o.auth ? { auth: o.auth } : {}),
  });
  await preflightPlan(plan, trustOf(o.keyPath));
  await writeRunPlan(path, plan);
  return {
    exitCode: 0,
    message: `run ${plan.run_id} (${plan.profile.name}): plan written to ${path}; it holds bearer tokens until ${new Date(plan.lease_until_ms).toISOString()}`,
  };
}

function trustOf(keyPath: string): string {
  if (keyPath === '') return 'the token command or headers given (--token-cmd, --header)';
  return join(dirname(keyPath), JWKS_FILE);
}

/** The very tokens the run presents, for the preflight and for the check after the load. */
function planTokens(plan: RunPlan, trust: string): TokenSource {
  const given = givenTokens([plan.tokens.control, ...plan.tokens.tenants.slice(0, 1)], trust);
  // Static headers (--header) go with every request of the run, the preflight's too.
  return plan.headers ? { ...given, tokens: async () => (await given.tokens()).map((t) => ({ ...t, headers: plan.headers })) } : given;
}

/** Preflight with the very tokens the run will present; the flows stamp leases on this machine's clock. */
function preflightPlan(plan: RunPlan, trust: string): Promise<PreflightResult> {
  return preflight({ target: plan.target, credentials: planTokens(plan, trust), maxClockOffsetMs: CLOCK_BOUND_MS.leases });
}

/** One load run, judged; a run that cannot start or cannot run as planned ends with its harness error's exit code (2). */
export async function runLoad(o: LoadRunOptions): Promise<LoadRunOutcome> {
  try {
    return await runLoadOrThrow(o);
  } catch (err) {
    return outcomeOf(err);
  }
}

async function runLoadOrThrow(o: LoadRunOptions): Promise<LoadRunOutcome> {
  const part = o.planPath !== undefined;
  if (o.segment && !part)
    throw new FleetproofError(
      'FP_ERR_USAGE',
      'an execution segment is a share of a distributed run: give the run plan (--plan) every part shares',
    );
  let plan: RunPlan;
  if (o.planPath !== undefined) plan = await readRunPlan(o.planPath);
  else {
    const prepared = await prepareFresh(o);
    plan = await buildRunPlan({
      target: o.target,
      // Here, not in a shared plan: the machine is the one the engine runs on.
      profile: fitProfileToMachine(prepared.profile),
      key: prepared.key,
      limits: prepared.limits,
      ...(o.runId ? { runId: o.runId } : {}),
      ...(o.auth ? { auth: o.auth } : {}),
    });
  }
  const target = plan.target;
  const profile = plan.profile;
  const engine = chooseEngine(o.engine ?? 'auto');
  if ('unavailable' in engine) throw new FleetproofError('FP_ERR_COULD_NOT_RUN', engine.unavailable);
  const trust = o.planPath !== undefined ? 'the public JWK set of the key that signed the plan' : trustOf(o.keyPath);
  const { version } = await preflightPlan(plan, trust);

  const startedAt = new Date();
  const loadAtStart = loadAverageNow();
  const outDir = o.outDir ?? defaultRunDir(plan.run_id);
  // k6 (and the Node runner, as k6 does) opens a relative path from the script's folder, not the working directory.
  const runFile = resolvePath(o.planPath ?? join(outDir, 'run-plan.json'));
  const summaryFile = join(outDir, 'engine-summary.json');
  const journalFile = join(outDir, 'journal.ndjson');
  const metricsFile = join(outDir, METRICS_FILE);
  await mkdir(outDir, { recursive: true });
  // A report directory given twice still holds the last run's outputs: k6
  // appends its console to the journal, and an engine that dies before its
  // summary would leave the old one to be read as this run's.
  await Promise.all([journalFile, summaryFile, metricsFile].map((f) => rm(f, { force: true })));
  if (!part) await writeRunPlan(runFile, plan);
  // The plan holds bearer tokens: a process that exits mid-run (a signal's handler ends it) removes it too.
  const forgetPlan = () => rmSync(runFile, { force: true });
  if (!part) process.on('exit', forgetPlan);
  // Worked out before the load, so that a plan it cannot read stops the run before it starts.
  const elsewhere = part ? phasesElsewhere(plan, o.segment ?? null) : [];
  let run;
  o.onLoadStart?.(journalFile);
  const budget = new Budget('load', o.budgetMs ?? loadBudgetMs(profile));
  try {
    run = await runEngine({
      signal: o.interrupt ? AbortSignal.any([budget.signal, o.interrupt]) : budget.signal,
      engine,
      env: { FLEETPROOF_RUN_FILE: runFile, FLEETPROOF_SUMMARY_FILE: summaryFile },
      journalPath: journalFile,
      metricsPath: metricsFile,
      ...(o.segment ? { segment: o.segment } : {}),
      quiet: o.quiet ?? false,
    });
  } catch (err) {
    // An engine that crashed ran nothing worth judging: the report says so, and the audit still reads what it left.
    run = { engine, exitCode: 1, error: `it crashed: ${(err as Error)?.message ?? String(err)}` };
  } finally {
    budget.stop();
    // The plan holds bearer tokens; they stay in memory for the audit only.
    // A shared plan belongs to the user, who hands it to the merge.
    if (!part) await rm(runFile, { force: true });
    process.off('exit', forgetPlan);
  }
  const summary = await readFile(summaryFile, 'utf8').then(
    (t) => JSON.parse(t) as EngineSummary,
    () => null,
  );
  const journal = await readJournal(journalFile);
  // A stopped engine's exit says nothing of its own: the stop is the reason, naming the phases this run had left.
  const finished = new Set([...journal.phases.map((p) => p.phase), ...elsewhere]);
  const outstanding = profile.phases.map((p) => p.name).filter((n) => !finished.has(n));
  let stopped: string | null = null;
  if (o.interrupt?.aborted) stopped = `the run was stopped by ${String(o.interrupt.reason)} before it ended${outstandingNote(outstanding)}`;
  else if (budget.spent) stopped = budget.spentError(outstanding).message;
  const engineError = stopped === null ? (run.error ?? null) : null;
  // A malformed output file loses the charts, not the run: writeRunMetrics below reports it.
  const output = await readRunOutput(metricsFile, summary?.test_run_duration_ms ?? null).catch(() => null);
  await o.beforeAudit?.();
  // Other parts may still hold routes: only the merge, after all of them, can audit.
  const after: AfterLoad = part ? { audit: null, error: null, retirement: null } : await auditAndRetire(plan, journal, o.keepData ?? false);
  const finishedAt = new Date();
  // The histograms serve a later merge, and the breakpoint curve; a run whose engine wrote no points still has its report.
  let histogramNote = '';
  let breakpoint: BreakpointResult | null = null;
  try {
    const written = await writeRunMetrics({
      outDir,
      runId: plan.run_id,
      profile,
      engine,
      ...(o.segment ? { segment: o.segment } : {}),
      target,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      testRunDurationMs: summary?.test_run_duration_ms ?? null,
      loadStartedAt: summary?.load_started_at ?? null,
    });
    // A part measured a share of each rate: the merge draws the curve.
    if (!part) breakpoint = breakpointCurve(written.h, profile);
  } catch (err) {
    histogramNote = `; no histograms.json: ${(err as Error).message}`;
  }
  const reportWith = (targetProblem: string | null) =>
    buildLoadReport({
      targetProblem,
      summary,
      journal,
      audit: after.audit,
      environment: captureEnvironment(engine, target, version, loadAtStart),
      engineExitCode: run.exitCode,
      engineError: engineError ?? after.error,
      stopped,
      runId: plan.run_id,
      profile: profile.name,
      overrides: profile.overrides,
      fitted: profile.fitted ?? [],
      ...(profile.stretched ? { stretched: profile.stretched } : {}),
      dataset: { ...profile.dataset },
      startedAt,
      finishedAt,
      retirement: after.retirement,
      breakpoint,
      rerun: loadRerun(o),
      profileSpec: {
        format: profile.format,
        description: profile.description,
        duration_s: profile.duration_s ?? null,
        judges_speed: profile.budgets_judge_speed !== false,
        phases: profile.phases,
        thresholds: profile.thresholds,
      },
      overTime: output?.over_time ?? null,
      metrics: output?.metrics ?? [],
      ...(part
        ? {
            auditMissing: `part of distributed run ${plan.run_id}: the audit runs when the parts are merged (fleetproof report --merge DIR... --plan FILE)`,
            elsewhere,
          }
        : {}),
    });
  let report = reportWith(null);
  // A failure, or a read the audit could not make, seen while the target had gone away or had started refusing the
  // tokens it accepted at preflight, is no evidence: the run did not run as planned, and the reason says so first.
  if ((report.verdict === 'fail' || report.verdict === 'could-not-judge') && !report.audit?.invariants.some((i) => !i.ok)) {
    const problem = await recheck({ target, credentials: planTokens(plan, trust) });
    if (problem !== null) report = reportWith(problem);
  }
  const write: ReportWriter<LoadReport> = o.writeReport ?? writeSummary;
  const files = await write(outDir, report);
  if (part) {
    // A part's thresholds cover its share only; the merge evaluates them once, globally (k6 exits 99 on its own verdict).
    const ran = stopped === null && (run.exitCode === 0 || run.exitCode === 99);
    const why = stopped ?? engineError;
    return {
      exitCode: ran ? 0 : 2,
      outDir,
      report,
      message: `${ran ? 'part written' : 'part COULD NOT RUN'}: ${profile.name} run ${plan.run_id}, segment ${o.segment?.segment ?? '0:1'}, in ${outDir}${why ? ` (${why})` : ''}; merge the parts with fleetproof report --merge DIR... --plan ${o.planPath}${histogramNote}`,
    };
  }
  const exitCode = loadExitCode(report);
  const answer = report.breakpoint
    ? `; every SLO held up to ${report.breakpoint.highest_held_rate === null ? 'no rate' : `${report.breakpoint.highest_held_rate} routes/s`}. ${report.breakpoint.limit}`
    : '';
  return {
    exitCode,
    outDir,
    report,
    message: `${loadVerdictWords(report)}: ${profile.name} run ${plan.run_id}${answer}; report ${files.html ?? files.json}${histogramNote}`,
  };
}

/** The phases a stopped run had not finished, as its reason names them. */
function outstandingNote(outstanding: readonly string[]): string {
  return outstanding.length === 0 ? '' : `; outstanding: ${outstanding.join(', ')}`;
}
