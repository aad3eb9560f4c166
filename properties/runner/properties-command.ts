// What `fleetproof properties` does once its flags are parsed: open the
// target, run the suites, print each verdict (and each failure in full),
// write result.json, and answer with the exit code. A target that cannot be
// opened, or flags that do not fit together, is exit 2.
import { CLOCK_BOUND_MS, preflight, runTokens, sharedRecheck, type TokenSource } from '../../client/preflight.ts';
import type { CredentialChoice } from '../../client/credential-sources.ts';
import { loadSigningKey } from '../../contract/tokens.ts';
import { isSuiteName, SUITE_NAMES, type SuiteName } from '../suites/index.ts';
import { Budget } from '../../client/stage-budget.ts';
import { FleetproofError } from '../../client/errors.ts';
import { propertiesBudgetMs } from './budget.ts';
import type { Target } from '../targets/target.ts';
import { failureReport, type ReplayCommand } from './failure-report.ts';
import { propertiesVerdictKey, resultDocument, writeResultDocument, type ResultDocument } from './result-document.ts';
import { parseReplayPath } from './replay-path.ts';
import { exitCodeOf, runProperties, RunnerUsageError, type PropertiesResult } from './run-properties.ts';
import { parseSeed } from './seed.ts';
import { propertiesProgress } from './progress.ts';
import { VERDICT_WORDS } from '../../client/verdict-words.ts';
import { defaultRunDir, newRunId } from '../../client/run-id.ts';
import { commandLine, withoutSecrets } from '../../client/rerun.ts';

export interface PropertiesCommand {
  /** Opens the registry under test for the run with this id; the composition root decides which. `stop` calls its requests off. */
  openTarget: (runId: string, stop: AbortSignal) => Promise<Target>;
  kind: Target['kind'];
  /** The stage's budget as given (--budget properties=...); scaled from the suites and their runs otherwise. */
  budgetMs?: number;
  /** The target's address and key when it is a registry over HTTP: preflight and the mid-run recheck speak to it. */
  http?: { url: string; key: string | null; auth?: CredentialChoice; requestTimeoutMs: number } | null;
  runs: number | undefined;
  seed: string | undefined;
  path: string | undefined;
  suites: string[];
  out: string | undefined;
  /** The flags as given, to print a replay command that targets the same registry. */
  argv: string[];
  /** Writes further reports (junit.xml) beside result.json; the composition root brings the renderer. */
  writeReports?: (dir: string, doc: ResultDocument) => Promise<unknown>;
  /** Under a nemesis: whether any fault fell while the suites ran. */
  faultsFell?: () => boolean;
  /** Called once the target is open and checked, as the suites start: the nemesis starts breaking things then. */
  suitesStarting?: () => void;
}

/** A run under a nemesis that injected nothing tested nothing under faults: a pass there is no verdict. */
const NO_FAULT =
  'no fault was injected while the suites ran: they judged nothing under faults (give more --runs, or a shorter calm in --nemesis-interval)';

function withoutFaults(result: PropertiesResult): PropertiesResult {
  return { ...result, suites: result.suites.map((s) => (s.status === 'pass' ? { ...s, status: 'error' as const, error: NO_FAULT } : s)) };
}

/** The suites time calls on the registry's own clock and mint tokens of hours on this one. */
async function httpTokens(http: NonNullable<PropertiesCommand['http']>): Promise<TokenSource> {
  return runTokens(http.auth, http.key === null ? null : await loadSigningKey(http.key), http.key === null ? {} : { keyPath: http.key });
}

async function preflightHttp(http: NonNullable<PropertiesCommand['http']>): Promise<void> {
  await preflight({
    target: http.url,
    credentials: await httpTokens(http),
    maxClockOffsetMs: CLOCK_BOUND_MS.tokens,
    timeoutMs: http.requestTimeoutMs,
  });
}

/** The given flags, secrets as placeholders, minus those a rerun replaces (and the quoting and environment they need). */
function keptFlags(argv: string[], replaced: ReadonlySet<string>): { kept: string[]; env: string[] } {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!.split('=')[0]!;
    if (replaced.has(flag)) {
      if (!argv[i]!.includes('=')) i++;
      continue;
    }
    kept.push(argv[i]!);
  }
  // A development build's deliberate defect replays only where defects are allowed, as it ran.
  return { kept: withoutSecrets(kept), env: kept.some((a) => a.startsWith('--defect')) ? ['FLEETPROOF_ALLOW_DEFECTS=1'] : [] };
}

/** The given flags minus those a replay replaces, plus the suite, seed and path. */
function replayCommandFor(argv: string[]): ReplayCommand {
  const { kept, env } = keptFlags(argv, new Set(['--seed', '--path', '--suite', '--runs', '--report-dir', '--out']));
  // `--seed=N`, not `--seed N`: seeds can be negative, and a separate "-5" reads as a flag.
  return (s) => commandLine('properties', [...kept, '--suite', s.name, `--seed=${s.seed}`, '--path', s.path!], env);
}

/** The run again: the same flags with the seed it ran with. */
function rerunFor(argv: string[], seed: number): string {
  const { kept, env } = keptFlags(argv, new Set(['--seed', '--path', '--report-dir', '--out']));
  return commandLine('properties', [...kept, `--seed=${seed}`], env);
}

export async function runPropertiesCommand(c: PropertiesCommand): Promise<number> {
  for (const s of c.suites) if (!isSuiteName(s)) throw new RunnerUsageError(`unknown suite ${s}`);
  let seed: number | undefined;
  try {
    seed = c.seed === undefined ? undefined : parseSeed(c.seed);
    if (c.path !== undefined) parseReplayPath(c.path);
  } catch (err) {
    throw new RunnerUsageError((err as Error).message);
  }
  if (c.path !== undefined && c.suites.length !== 1)
    throw new RunnerUsageError('--path replays one suite’s counterexample: give exactly one --suite');
  const runId = newRunId();
  const suites = c.suites.length > 0 ? (c.suites as SuiteName[]) : SUITE_NAMES;
  const budget = new Budget('properties', c.budgetMs ?? propertiesBudgetMs(c.kind, suites, c.runs));
  let target: Target;
  try {
    if (c.http) await preflightHttp(c.http);
    target = await c.openTarget(runId, budget.signal);
  } catch (err) {
    budget.stop();
    const code = FleetproofError.is(err) ? ` [${err.code}]` : '';
    console.error(`fleetproof properties: could not run: ${(err as Error).message}${code}`);
    return 2;
  }
  const replay = replayCommandFor(c.argv);
  try {
    c.suitesStarting?.();
    const ran = await runProperties({
      target,
      runId,
      suites,
      budget,
      ...(c.runs !== undefined ? { runs: c.runs } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(c.path !== undefined ? { path: c.path } : {}),
      log: (line) => console.log(line),
      progress: propertiesProgress(),
      ...(c.http
        ? {
            stillJudgeable: sharedRecheck({
              target: c.http.url,
              credentials: await httpTokens(c.http),
              timeoutMs: c.http.requestTimeoutMs,
            }),
          }
        : {}),
    });
    const result = c.faultsFell && !c.faultsFell() ? withoutFaults(ran) : ran;
    for (const s of result.suites) if (s.status !== 'pass') console.log(`\n${failureReport(s, replay)}`);
    const out = c.out ?? defaultRunDir(result.runId);
    const doc = await resultDocument(result, replay, rerunFor(c.argv, result.seed.seed));
    const file = await writeResultDocument(out, doc);
    await c.writeReports?.(out, doc);
    const code = exitCodeOf(result);
    const why = { hold: 'every property holds', counterexample: 'counterexample found', error: 'some suites could not be judged' }[
      doc.verdict
    ];
    console.log(`\n${VERDICT_WORDS[propertiesVerdictKey(doc.verdict)]}: ${why}; result: ${file}`);
    if (result.unfinished !== null) console.log(result.unfinished);
    return code;
  } finally {
    budget.stop();
    await target.close();
  }
}
