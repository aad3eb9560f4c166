// One conformance run, start to finish: read the target's /version, select
// cases, run them (independent cases concurrently, then serial ones, then
// exclusive ones, each alone), retire the run's data, roll results up per
// clause and category, and write the reports. The CLI and the tests call
// this same function, so what the tests prove is what vendors run.
import { setMaxListeners } from 'node:events';
import { resolve } from 'node:path';
import { clauses } from '../../contract/clauses.ts';
import { CLOCK_BOUND_MS, credentialSource, preflight, sharedRecheck } from '../../client/preflight.ts';
import type { FleetStatus } from '../../contract/records.ts';
import { defaultRunDir, newRunId } from '../../client/run-id.ts';
import { loadSigningKey, type SigningKey } from '../../contract/tokens.ts';
import { hasOwnCredentials, type CredentialChoice } from '../../client/credential-sources.ts';
import { HttpTransport } from '../../client/http-transport.ts';
import { RegistryClient } from '../harness/client.ts';
import { clockFrom, ServerClock } from '../harness/clock.ts';
import { createCaseContext, type RunScope } from '../harness/context.ts';
import type { ConformanceCase } from '../harness/define-case.ts';
import { CaseNotProvocable, ConformanceFailure, HarnessError } from '../harness/failure.ts';
import { retire, RetirementLedger, type RetirementOutcome } from '../harness/retirement.ts';
import { HarnessTokens } from '../harness/tokens.ts';
import { FEATURES, type Feature } from '../harness/vocabulary.ts';
import { redactConfig, type ConformConfig } from './config.ts';
import { loadCases, type LoadedCase } from './load-cases.ts';
import { silentProgress, type ProgressSink } from './progress.ts';
import { writeResult, type ResultWriter } from './write-result.ts';
import { buildResult } from './rollup.ts';
import type { CaseResult, ConformanceResult } from './result.ts';
import { EXIT, outcomeOf } from '../../client/errors.ts';
import { FleetproofError } from '../../client/errors.ts';

export class CouldNotRun extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_COULD_NOT_RUN', message, options);
  }
}

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
}

export interface ConformOutcome {
  exitCode: 0 | 1 | 2;
  result: ConformanceResult | null;
  outDir: string | null;
  /** Why the run could not happen (exit 2). */
  error?: string;
}

const SLOW_FACTOR = 4;

/** Why --header alone cannot carry a conformance run. */
export const ONE_CALLER =
  '--header alone makes every request the same caller, but the cases speak as many tenants and roles: add --token-cmd (a token for {tenant} and {roles}) or --key';

function select(loaded: LoadedCase[], config: ConformConfig): LoadedCase[] {
  const known = new Set(loaded.map((l) => l.id));
  const unknown = config.cases.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new CouldNotRun(`no such case: ${unknown.join(', ')}`);
  if (config.categories.length === 0 && config.cases.length === 0) return loaded;
  const categories = new Set<string>(config.categories);
  const cases = new Set(config.cases);
  return loaded.filter((l) => cases.has(l.id) || categories.has(l.id.split('/')[0]!));
}

async function measureClock(operator: RegistryClient, dateOffsetMs: number): Promise<ServerClock> {
  const sent = Date.now();
  try {
    const reply = await operator.call('getFleetStatus');
    if (reply.status === 200)
      return clockFrom((reply.json as FleetStatus).observed_at, sent, Date.now(), 'GET /v1/fleet/status observed_at');
  } catch {
    // fall back to the Date header below
  }
  // The Date header has whole seconds: the offset is good to about a second, enough for leases of minutes.
  return new ServerClock(dateOffsetMs, 'Date header of GET /version', 1000);
}

async function runCase(scope: RunScope, c: ConformanceCase, timeoutMs: number): Promise<CaseResult> {
  const controller = new AbortController();
  // Concurrency cases put a hundred requests in flight on one signal.
  setMaxListeners(0, controller.signal);
  const { ctx, exchanges } = createCaseContext(scope, c.id, controller.signal);
  const startedAt = Date.now();
  const budget = c.flags.includes('slow') ? timeoutMs * SLOW_FACTOR : timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new HarnessError(`timed out after ${budget} ms (no verdict: a slow or stuck target is not proof of a violation)`);
      controller.abort(err);
      reject(err);
    }, budget);
  });
  const base = {
    id: c.id,
    clause: c.clause,
    category: c.category,
    severity: c.severity,
    description: c.description,
    flags: [...c.flags],
    features: [...c.features],
  };
  const running = c.run(ctx);
  running.catch(() => {});
  try {
    await Promise.race([running, timedOut]);
    return {
      ...base,
      status: 'pass',
      started_at: new Date(startedAt).toISOString(),
      duration_ms: Date.now() - startedAt,
      message: null,
      failure_clause: null,
      exchange: null,
      exchange_count: exchanges.length,
    };
  } catch (err) {
    const last = exchanges.at(-1) ?? null;
    const common = {
      ...base,
      started_at: new Date(startedAt).toISOString(),
      duration_ms: Date.now() - startedAt,
      exchange_count: exchanges.length,
    };
    if (ConformanceFailure.is(err)) {
      return { ...common, status: 'fail', message: err.message, failure_clause: err.clause ?? c.clause, exchange: err.exchange ?? last };
    }
    if (err instanceof CaseNotProvocable) return { ...common, status: 'skip', message: err.message, failure_clause: null, exchange: null };
    const message =
      err instanceof HarnessError
        ? err.message
        : `${(err as Error)?.name ?? 'Error'}: ${(err as Error)?.message ?? String(err)} ${
            (err as Error)?.stack
              ?.split('\n')
              .find((l) => l.includes('/conformance/'))
              ?.trim() ?? ''
          }`.trim();
    return { ...common, status: 'error', message, failure_clause: null, exchange: last };
  } finally {
    clearTimeout(timer);
  }
}

function staticResult(l: LoadedCase, status: 'skip' | 'error', message: string): CaseResult {
  const c = l.case;
  return {
    id: l.id,
    clause: c?.clause ?? 'unknown',
    category: c?.category ?? l.id.split('/')[0] ?? 'unknown',
    severity: c?.severity ?? null,
    description: c?.description ?? '',
    flags: [...(c?.flags ?? [])],
    features: [...(c?.features ?? [])],
    status,
    started_at: null,
    duration_ms: 0,
    message,
    failure_clause: null,
    exchange: null,
    exchange_count: 0,
  };
}

/**
 * A failure seen while the target had stopped answering, or had started
 * refusing the tokens it accepted at preflight, is no evidence about the
 * registry: the case ends in error.
 */
async function unlessTargetWentAway(r: CaseResult, stillJudgeable: () => Promise<string | null>): Promise<CaseResult> {
  if (r.status !== 'fail') return r;
  const problem = await stillJudgeable();
  return problem === null
    ? r
    : { ...r, status: 'error', message: `no verdict: after this case ${problem} (the case had seen: ${r.message})`, failure_clause: null };
}

async function inPool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
}

export async function runConformance(options: ConformOptions): Promise<ConformOutcome> {
  const progress = options.progress ?? silentProgress;
  const config = options.config;
  const startedAt = Date.now();
  const runId = options.runId ?? newRunId(new Date(startedAt));
  let transport: HttpTransport | undefined;
  try {
    const auth = options.auth ?? {};
    let key: SigningKey | null = options.signingKey ?? null;
    if (!key && config.keyFile !== null) {
      try {
        key = await loadSigningKey(config.keyFile);
      } catch (err) {
        throw new CouldNotRun(`signing key: ${(err as Error).message}`);
      }
    }
    if (!key && !hasOwnCredentials(auth))
      throw new CouldNotRun(
        'no signing key and no credentials of your own: give --key FILE (or FLEETPROOF_KEY), or --token-cmd / --header',
      );
    // The cases speak as many tenants and roles; static headers alone would make every request the same caller.
    if (!key && auth.tokenCommand === undefined) throw new CouldNotRun(ONE_CALLER);
    const loaded = await loadCases(options.casesRoot);
    const selected = select(loaded, config);
    if (selected.length === 0) throw new CouldNotRun('the selection holds no case');
    // One token source for the run: its requests, its preflight and its mid-run rechecks present the same credentials.
    const tokens = new HarnessTokens(key, config.audience, auth);
    const ledger = new RetirementLedger();
    transport = new HttpTransport({
      baseUrl: config.target,
      credentials: tokens.credentials,
      connections: 256,
      timeoutMs: config.timeoutMs,
    });
    const credentials = credentialSource(tokens.credentials, {
      auth,
      key,
      keyPath: config.keyFile,
      audience: config.audience,
      signsWithKey: true,
    });
    const { version, clockOffsetMs } = await preflight({
      target: config.target,
      credentials,
      maxClockOffsetMs: CLOCK_BOUND_MS.tokens,
      timeoutMs: config.timeoutMs,
    });
    const clock = await measureClock(new RegistryClient({ transport }, { roles: ['registry:operator'] }), clockOffsetMs);
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
    const judged = async (r: CaseResult) => finish(await unlessTargetWentAway(r, stillJudgeable));
    const runnable: Array<{ loaded: LoadedCase; c: ConformanceCase }> = [];
    for (const l of selected) {
      if (!l.case || l.problems.length > 0) {
        finish(staticResult(l, 'error', `the case itself is broken: ${l.problems.map((p) => `${p.code} ${p.message}`).join('; ')}`));
        continue;
      }
      const missing = l.case.features.filter((f) => !effective.includes(f));
      if (missing.length > 0) finish(staticResult(l, 'skip', `needs feature ${missing.join(', ')}, which the target does not declare`));
      else runnable.push({ loaded: l, c: l.case });
    }
    const casesStarted = Date.now();
    const alone = (c: ConformanceCase) => c.flags.includes('serial') || c.flags.includes('exclusive');
    progress.phase('concurrent cases');
    await inPool(
      runnable.filter(({ c }) => !alone(c)),
      config.concurrency,
      async ({ c }) => await judged(await runCase(scope, c, config.timeoutMs)),
    );
    progress.phase('serial cases');
    for (const { c } of runnable.filter(({ c }) => c.flags.includes('serial') && !c.flags.includes('exclusive')))
      await judged(await runCase(scope, c, config.timeoutMs));
    progress.phase('exclusive cases');
    for (const { c } of runnable.filter(({ c }) => c.flags.includes('exclusive'))) await judged(await runCase(scope, c, config.timeoutMs));
    const casesMs = Date.now() - casesStarted;

    progress.phase('retiring run data');
    const bare = new RegistryClient({ transport });
    const admin = bare.as({ roles: ['registry:admin'] });
    const retirement: RetirementOutcome = await retire(
      ledger,
      {
        admin,
        lifecycle: bare.as({ roles: ['registry:lifecycle'] }),
        reader: bare.as({ roles: ['registry:reader'] }),
        dispatch: (t) => bare.as({ roles: ['registry:dispatch'], tenant: t }),
      },
      clock,
    );
    const finishedAt = Date.now();
    const result = buildResult({
      runId,
      config: redactConfig(config, key?.kid ?? null, auth),
      targetUrl: String(redactConfig(config, null)['target']),
      version,
      clock,
      declared: version.features,
      effective,
      overridden: config.features !== null,
      selection: { categories: config.categories, cases: config.cases, selected: selected.length, total: loaded.length },
      cases: selected.map((l) => results.get(l.id)!),
      spec: clauses(),
      timings: { startedAt, finishedAt, casesMs, retirementMs: retirement.duration_ms },
      retirement,
    });
    const outDir = options.writeReports === false ? null : resolve(config.out ?? defaultRunDir(runId));
    if (outDir) await (options.writeReports || writeResult)(result, outDir);
    progress.finish(result, outDir ?? '(not written)');
    const exitCode =
      result.verdict === 'qualified' ? EXIT.qualified : result.verdict === 'non-conformant' ? EXIT.nonConformant : EXIT.couldNotRun;
    return { exitCode, result, outDir };
  } catch (err) {
    const { exitCode, message } = outcomeOf(err);
    return { exitCode, result: null, outDir: null, error: message };
  } finally {
    await transport?.close();
  }
}
