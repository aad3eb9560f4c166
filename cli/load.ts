// `fleetproof load`: scale qualification of a registry over HTTP with the
// k6 scripts in load/, on k6 when it is on PATH, else on the Node runner.
import { loadScaleContract, parseDuration } from '../load/runner/scale-contract.ts';
import { chooseSegment, type SegmentChoice } from '../load/runner/execution-segments.ts';
import { BUDGET_FLAG, budgetsOf } from './budget-flag.ts';
import { runLoad, writeSharedPlan, type LoadRunOptions, type LoadRunOutcome } from '../load/runner/run-load.ts';
import { renderTerminalSummary } from '../reports/load/terminal-summary.ts';
import { writeLoadReport } from '../reports/load/write-load-report.ts';
import { hasOwnCredentials } from '../client/credential-sources.ts';
import { parseFlags, UsageError, type FlagSpec, reportDirFlag } from './args.ts';
import { AUTH_FLAGS, authChoice } from './auth-flags.ts';
import { unknownName } from './suggest.ts';
import { NEMESIS_FLAGS, nemesisRequestOf } from './nemesis-flags.ts';

export const summary = 'run a scale qualification profile against a registry and audit it';

export const FLAGS = {
  target: { type: 'string', description: 'base URL of the registry' },
  key: { type: 'string', description: 'private Ed25519 JWK that mints the tokens the target trusts (fleetproof keys)' },
  ...AUTH_FLAGS,
  profile: { type: 'string', description: 'smoke, aip-fleet-slo-v1, sustained or breakpoint', default: 'smoke' },
  engine: { type: 'string', description: 'auto, k6 or node', default: 'auto' },
  set: {
    type: 'string',
    multiple: true,
    description: 'override a dataset dimension (tenants=10) or phase parameter (concurrent_routes.routes=200); repeatable',
  },
  phases: {
    type: 'string',
    description: 'run only these phases, comma-separated (the seed always runs); a partial run is no qualification',
  },
  duration: { type: 'string', description: 'how long the sustained phases run (90s, 5m)' },
  'report-dir': reportDirFlag('folder for the reports (default reports/runs/<run id>)'),
  budget: BUDGET_FLAG,
  quiet: { type: 'boolean', description: 'no progress output' },
  'keep-data': {
    type: 'boolean',
    description: "leave the run's records as they are (default: disable its types and take its replicas offline after the audit)",
  },
  'write-plan': {
    type: 'string',
    flagOnly: true,
    description: 'write the shared plan of a distributed run to FILE and stop (holds bearer tokens)',
  },
  plan: {
    type: 'string',
    flagOnly: true,
    description:
      'run one part of a distributed run on its shared plan (target, profile and tokens come from it); the audit waits for fleetproof report --merge --plan',
  },
  segment: {
    type: 'string',
    flagOnly: true,
    description: 'with --plan: the share of the test this part runs, a k6 execution segment (0:1/2, 1/2:1)',
  },
  'segment-sequence': {
    type: 'string',
    flagOnly: true,
    description: 'with --segment: the segments of every part (0,1/3,2/3,1); default N equal parts',
  },
  ...NEMESIS_FLAGS,
} satisfies Record<string, FlagSpec>;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('load', summary, FLAGS, argv);
  if (!parsed) return 0;
  const v = parsed.values;
  const usage = (m: string) => new UsageError(`${m}`);
  if (v.plan !== undefined) {
    for (const flag of ['target', 'set', 'phases', 'duration', 'write-plan'] as const) {
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
  else if (!nemesis) outcome = await runLoad(options);
  else {
    // Judged by the sweep and the audit after the faults; speed under faults is reported, not judged.
    const { runLoadUnderFaults } = await import('../certify/nemesis/load-under-faults.ts');
    outcome = await runLoadUnderFaults(options, nemesis, (line) => console.log(line));
  }
  if (outcome.report && !v.quiet) console.log(renderTerminalSummary(outcome.report));
  (outcome.exitCode === 0 ? console.log : console.error)(`fleetproof load: ${outcome.message}`);
  for (const reason of outcome.report?.reasons ?? []) console.error(`  ${reason}`);
  return outcome.exitCode;
}
