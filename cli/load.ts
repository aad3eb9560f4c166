// `fleetproof load`: scale qualification of a registry over HTTP with the
// k6 scripts in load/, on k6 when it is on PATH, else on the Node runner.
import { loadScaleContract, parseDuration } from '../load/runner/scale-contract.ts';
import { chooseSegment, type SegmentChoice } from '../load/runner/execution-segments.ts';
import { budgetsOf } from './budget-flag.ts';
import { runLoad, writeSharedPlan, type LoadRunOptions, type LoadRunOutcome } from '../load/runner/run-load.ts';
import { renderTerminalSummary } from '../reports/load/terminal-summary.ts';
import { writeLoadReport } from '../reports/load/write-load-report.ts';
import { hasOwnCredentials } from '../client/credential-sources.ts';
import { parseFlags, UsageError } from './args.ts';
import { authChoice } from './auth-flags.ts';
import { unknownName } from './suggest.ts';
import { nemesisRequestOf } from './nemesis-flags.ts';
import { signalWatch } from './orphan-watch.ts';
import { FLAGS, summary } from './flags/load.ts';

/**
 * Runs the load with Ctrl-C (SIGINT, or SIGTERM) stopping it as its budget
 * running out does: the registry is still audited and the run's records
 * retired, and the plan file with its tokens removed, where Node's default
 * would end the process and leave all three.
 */
async function stoppableBySignal<T>(body: (interrupt: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const signals = signalWatch();
  void signals.received.then((signal) => {
    console.error(`fleetproof load: ${signal}, stopping the load; the audit and the retirement still run`);
    controller.abort(signal);
  });
  try {
    return await body(controller.signal);
  } finally {
    signals.stop();
  }
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('load', summary, FLAGS, argv);
  if (!parsed) return 0;
  const v = parsed.values;
  const usage = (m: string) => new UsageError(`${m}`);
  if (v.plan !== undefined) {
    // The plan holds the target, the profile as fitted and every token; the merge audits and retires.
    const fixed = ['target', 'profile', 'set', 'phases', 'duration', 'key', 'token-cmd', 'header', 'keep-data', 'write-plan'] as const;
    for (const flag of fixed) {
      // A FLEETPROOF_TARGET meant for other commands is no conflict: only a flag given with --plan is.
      if (parsed.sources[flag]?.from === 'flag' && !(Array.isArray(v[flag]) && v[flag].length === 0))
        throw usage(`--${flag} cannot be combined with --plan: the plan fixes the run`);
    }
  } else {
    if (!v.target) throw usage('--target is required');
    if (!/^https?:\/\//.test(v.target)) throw usage('--target must be an http(s) URL');
    if (!v.key && !hasOwnCredentials(authChoice(v)))
      throw usage('--key FILE is required (or --token-cmd CMD, or --header for static credentials)');
  }
  let segment: SegmentChoice | undefined;
  if (v['segment-sequence'] !== undefined && v.segment === undefined) throw usage('--segment-sequence needs --segment');
  if (v.segment !== undefined) {
    if (v.plan === undefined) throw usage('--segment needs --plan: a segment is one part of a distributed run');
    segment = chooseSegment(v.segment, v['segment-sequence']);
  }
  if (v.engine !== 'auto' && v.engine !== 'k6' && v.engine !== 'node')
    throw usage(unknownName('engine', v.engine!, ['auto', 'k6', 'node']));
  const profiles = Object.keys(loadScaleContract().profiles);
  if (v.plan === undefined && !profiles.includes(v.profile!)) throw usage(unknownName('profile', v.profile!, profiles));
  let durationS: number | undefined;
  try {
    durationS = v.duration === undefined ? undefined : parseDuration(v.duration);
  } catch (err) {
    throw usage((err as Error).message);
  }
  const engine = v.engine;
  const loadBudgetMs = budgetsOf(v.budget).load;
  const options: LoadRunOptions = {
    target: v.target ?? '',
    keyPath: v.key ?? '',
    auth: authChoice(v),
    profile: v.profile!,
    engine,
    sets: v.set ?? [],
    ...(v.phases
      ? {
          phases: v.phases
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean),
        }
      : {}),
    ...(durationS !== undefined ? { durationS } : {}),
    ...(v['report-dir'] ? { outDir: v['report-dir'] } : {}),
    ...(v.plan !== undefined ? { planPath: v.plan } : {}),
    ...(segment ? { segment } : {}),
    ...(loadBudgetMs !== undefined ? { budgetMs: loadBudgetMs } : {}),
    quiet: v.quiet ?? false,
    keepData: v['keep-data'] ?? false,
    writeReport: writeLoadReport,
  };
  const nemesis = nemesisRequestOf(v);
  if (nemesis && (v.plan !== undefined || v['write-plan'] !== undefined))
    throw usage('--nemesis runs with a whole load run, not with --plan or --write-plan');
  let outcome: LoadRunOutcome;
  if (v['write-plan'] !== undefined) outcome = await writeSharedPlan(options, v['write-plan']);
  else if (!nemesis) outcome = await stoppableBySignal((interrupt) => runLoad({ ...options, interrupt }));
  else {
    // Judged by the sweep and the audit after the faults; speed under faults is reported, not judged.
    const { runLoadUnderFaults } = await import('../certify/nemesis/load-under-faults.ts');
    outcome = await runLoadUnderFaults(options, nemesis, (line) => console.log(line));
  }
  if (outcome.report && !v.quiet) console.log(renderTerminalSummary(outcome.report, { part: v.plan !== undefined }));
  (outcome.exitCode === 0 ? console.log : console.error)(`fleetproof load: ${outcome.message}${outcome.code ? ` [${outcome.code}]` : ''}`);
  for (const reason of outcome.report?.reasons ?? []) console.error(`  ${reason}`);
  return outcome.exitCode;
}
