// One conformance run, start to finish: read the target's /version, select
// cases, run them (independent cases concurrently, then serial ones, then
// exclusive ones, each alone), replay each failure once, retire the run's
// data (or keep it, listed), roll results up per clause and category, and
// write the reports. The CLI and the tests call
// this same function, so what the tests prove is what vendors run.
import { resolve } from 'node:path';
import { clauses } from '../../contract/clauses.ts';
import { sharedRecheck } from '../../client/preflight.ts';
import { defaultRunDir, newRunId } from '../../client/run-id.ts';
import type { SigningKey } from '../../contract/tokens.ts';
import type { CredentialChoice } from '../../client/credential-sources.ts';
import { HttpTransport } from '../../client/http-transport.ts';
import { Budget } from '../../client/stage-budget.ts';
import { RegistryClient } from '../harness/client.ts';
import type { RunScope } from '../harness/context.ts';
import type { ConformanceCase } from '../harness/define-case.ts';
import { inPool } from '../harness/in-pool.ts';
import { retire, RetirementLedger, type RetirementOutcome } from '../harness/retirement.ts';
import { FEATURES, type Feature } from '../harness/vocabulary.ts';
import { alone, conformanceBudgetMs, retirementBudgetMs } from './budgets.ts';
import { redactConfig, type ConformConfig } from './config.ts';
import { loadCases, type LoadedCase } from './load-cases.ts';
import { silentProgress, type ProgressSink } from './progress.ts';
import { NOT_STARTED, PACE_CEILING, runCase, SLOW_FACTOR, staticResult, STOPPED_BY_BUDGET, unlessTargetWentAway } from './run-case.ts';
import { writeResult, type ResultWriter } from './write-result.ts';
import { keptDataOf, keptRetirement, writeKeptRecords } from './kept-data.ts';
import { replayFailures } from './replay.ts';
import { conformRerun } from './rerun.ts';
import { buildResult } from './rollup.ts';
import type { CaseResult, ConformanceResult, KeptData } from './result.ts';
import { EXIT, outcomeOf, type HarnessErrorCode } from '../../client/errors.ts';
import { counted } from '../../client/terminal.ts';
import { connect, CouldNotRun } from './connection.ts';

export interface ConformOptions {
  config: ConformConfig;
  /** Use this key instead of reading config.keyFile (tests with ephemeral keys, certify's target). */
  signingKey?: SigningKey;
  /**
   * A token command or static headers for the requests that speak as a
   * caller. Without a signing key besides, the cases that must sign a token
   * with special claims (expired, wrong audience) skip, each with its reason.
   */
  auth?: CredentialChoice;
  progress?: ProgressSink;
  /** false leaves the result in memory only; default result.json alone, or the caller's writer with renderers. */
  writeReports?: false | ResultWriter;
  casesRoot?: string;
  runId?: string;
  /** Leave the run's records as they are (listed in kept-records.json) instead of retiring them, so each failure's curl replays. */
  keepData?: boolean;
}

export interface ConformOutcome {
  exitCode: 0 | 1 | 2;
  result: ConformanceResult | null;
  outDir: string | null;
  /** Why the run could not happen (exit 2). */
  error?: string;
  /** The stable code of that error (docs/exit-codes.md). */
  code?: HarnessErrorCode;
}

/** Whether a case id is in a selection: every case when none is named, else each case named and each of a category named. */
export function inSelection(selection: { categories: readonly string[]; cases: readonly string[] }): (id: string) => boolean {
  if (selection.categories.length === 0 && selection.cases.length === 0) return () => true;
  const categories = new Set<string>(selection.categories);
  const cases = new Set(selection.cases);
  return (id) => cases.has(id) || categories.has(id.split('/')[0]!);
}

function select(loaded: LoadedCase[], config: ConformConfig): LoadedCase[] {
  const known = new Set(loaded.map((l) => l.id));
  const unknown = config.cases.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new CouldNotRun(`no such case: ${unknown.join(', ')}`);
  const selected = inSelection(config);
  return loaded.filter((l) => selected(l.id));
}

/** Runs the cases (independent ones concurrently, then serial ones, then exclusive ones, each alone) until done or out of budget. */
async function runCases(
  scope: RunScope,
  runnable: readonly ConformanceCase[],
  config: ConformConfig,
  budget: Budget,
  progress: ProgressSink,
  judged: (r: CaseResult) => Promise<void>,
): Promise<void> {
  const one = async (c: ConformanceCase) => await judged(await runCase(scope, c, config.timeoutMs, budget.signal));
  progress.phase('concurrent cases');
  await inPool(
    runnable.filter((c) => !alone(c)),
    config.concurrency,
    one,
    budget.signal,
  );
  progress.phase('serial cases');
  await inPool(
    runnable.filter((c) => c.flags.includes('serial') && !c.flags.includes('exclusive')),
    1,
    one,
    budget.signal,
  );
  progress.phase('exclusive cases');
  await inPool(
    runnable.filter((c) => c.flags.includes('exclusive')),
    1,
    one,
    budget.signal,
  );
}

/** Retires what the run created, within the retirement's budget; the line naming what it left, when the budget ran out. */
export async function retireRun(
  scope: Pick<RunScope, 'transport' | 'ledger' | 'clock'>,
  budgetMs: number | undefined,
  progress: ProgressSink,
): Promise<{ retirement: RetirementOutcome; budgetMs: number; unfinished: string | null }> {
  let records = 0;
  progress.phase('retiring run data', () => counted(records, 'record'));
  const budget = new Budget('retirement', budgetMs ?? retirementBudgetMs(scope.ledger));
  try {
    const bare = new RegistryClient({ transport: scope.transport.with({ signal: budget.signal }) });
    const retirement = await retire(
      scope.ledger,
      {
        admin: bare.as({ roles: ['registry:admin'] }),
        lifecycle: bare.as({ roles: ['registry:lifecycle'] }),
        reader: bare.as({ roles: ['registry:reader'] }),
        dispatch: (t) => bare.as({ roles: ['registry:dispatch'], tenant: t }),
      },
      scope.clock,
      budget.signal,
    );
    records = Object.values(retirement.counts).reduce((n, c) => n + c.created, 0);
    const left = Object.values(retirement.counts).reduce((n, c) => n + c.failed, 0);
    const unfinished = budget.spent ? budget.spentError([`${left} record(s) not retired`]).message : null;
    return { retirement, budgetMs: budget.ms, unfinished };
  } finally {
    budget.stop();
  }
}

export async function runConformance(options: ConformOptions): Promise<ConformOutcome> {
  const progress = options.progress ?? silentProgress;
  const config = options.config;
  const startedAt = Date.now();
  const runId = options.runId ?? newRunId(new Date(startedAt));
  let transport: HttpTransport | undefined;
  let budget: Budget | undefined;
  try {
    const loaded = await loadCases(options.casesRoot);
    const selected = select(loaded, config);
    if (selected.length === 0) throw new CouldNotRun('the selection holds no case');
    const budgetMs =
      config.budgets.conformance ??
      conformanceBudgetMs(
        selected.flatMap((l) => (l.case ? [l.case] : [])),
        config,
      );
    budget = new Budget('conformance', budgetMs);
    const connection = await connect(config, options, budget.signal);
    transport = connection.transport;
    const { key, auth, tokens, credentials, version, clock, answerLimitBytes } = connection;
    const ledger = new RetirementLedger();
    const effective: Feature[] =
      config.features ?? version.features.filter((f): f is Feature => (FEATURES as readonly string[]).includes(f));
    const scope: RunScope = { runId, transport, tokens, version, clock, ledger };
    progress.start({
      runId,
      target: config.target,
      implementation: `${version.implementation.name} ${version.implementation.version}`,
      total: selected.length,
    });

    const results = new Map<string, CaseResult>();
    const finish = (r: CaseResult) => {
      results.set(r.id, r);
      progress.caseFinished(r);
    };
    const stillJudgeable = sharedRecheck({ target: config.target, credentials, timeoutMs: config.timeoutMs });
    const runnable: ConformanceCase[] = [];
    for (const l of selected) {
      if (!l.case || l.problems.length > 0) {
        finish(staticResult(l, 'error', `the case itself is broken: ${l.problems.map((p) => `${p.code} ${p.message}`).join('; ')}`));
        continue;
      }
      const missing = l.case.features.filter((f) => !effective.includes(f));
      if (missing.length > 0) finish(staticResult(l, 'skip', `needs feature ${missing.join(', ')}, which the target does not declare`));
      else runnable.push(l.case);
    }
    const casesStarted = Date.now();
    await runCases(scope, runnable, config, budget, progress, async (r) => finish(await unlessTargetWentAway(r, stillJudgeable)));
    for (const l of selected) if (!results.has(l.id)) finish(staticResult(l, 'error', NOT_STARTED));
    const casesMs = Date.now() - casesStarted;
    budget.stop();
    const outstanding = selected
      .filter((l) => [NOT_STARTED, STOPPED_BY_BUDGET].includes(results.get(l.id)!.message ?? ''))
      .map((l) => l.id);

    // Each failure's exchange once more, while the records it touched are still as the run left them.
    let replayed = 0;
    progress.phase('replaying failures', () => counted(replayed, 'failure'));
    const cases = await replayFailures(
      selected.map((l) => results.get(l.id)!),
      transport,
    );
    replayed = cases.filter((c) => c.replay !== undefined).length;
    const outDir = options.writeReports === false ? null : resolve(config.out ?? defaultRunDir(runId));
    const recorded = redactConfig(config, key?.kid ?? null, auth);
    let retirement: RetirementOutcome;
    let retirementMs: number | undefined;
    let unfinished: string | null = null;
    let keptData: KeptData | undefined;
    if (options.keepData) {
      retirement = keptRetirement(ledger);
      keptData = keptDataOf(recorded, outDir, outDir ? await writeKeptRecords(outDir, runId, config.target, ledger) : null);
    } else ({ retirement, budgetMs: retirementMs, unfinished } = await retireRun(scope, config.budgets.retirement, progress));
    const stopped = [...(budget.spent ? [budget.spentError(outstanding).message] : []), ...(unfinished ? [unfinished] : [])];
    const finishedAt = Date.now();
    const result = buildResult({
      runId,
      config: {
        ...recorded,
        budgets_ms: { conformance: budgetMs, ...(retirementMs !== undefined ? { retirement: retirementMs } : {}) },
        // A case waits on a quiet wire at most its limit, and runs at most the ceiling times it while it keeps exchanging.
        case_limit: { quiet_ms: config.timeoutMs, slow_factor: SLOW_FACTOR, pace_ceiling: PACE_CEILING },
        answer_limit_bytes: answerLimitBytes,
      },
      targetUrl: String(redactConfig(config, null)['target']),
      version,
      clock,
      declared: version.features,
      effective,
      overridden: config.features !== null,
      selection: { categories: config.categories, cases: config.cases, selected: selected.length, total: loaded.length },
      cases,
      spec: clauses(),
      timings: { startedAt, finishedAt, casesMs, retirementMs: retirement.duration_ms },
      retirement,
      unfinished: stopped.length > 0 ? stopped.join('; ') : null,
      rerun: conformRerun(recorded, { keepData: options.keepData ?? false }),
      ...(keptData ? { keptData } : {}),
    });
    if (outDir) await (options.writeReports || writeResult)(result, outDir);
    progress.finish(result, outDir ?? '(not written)');
    const exitCode =
      result.verdict === 'qualified' ? EXIT.qualified : result.verdict === 'non-conformant' ? EXIT.nonConformant : EXIT.couldNotRun;
    return { exitCode, result, outDir, ...(result.unfinished ? { error: result.unfinished, code: 'FP_ERR_COULD_NOT_RUN' } : {}) };
  } catch (err) {
    // Out of budget before a case ran, the checks that stopped are no finding about the target.
    if (budget?.spent)
      return {
        exitCode: EXIT.couldNotRun,
        result: null,
        outDir: null,
        error: budget.spentError(['the preflight, and every case']).message,
        code: 'FP_ERR_COULD_NOT_RUN',
      };
    const { exitCode, message, code } = outcomeOf(err);
    return { exitCode, result: null, outDir: null, error: message, code };
  } finally {
    budget?.stop();
    await transport?.close();
  }
}
