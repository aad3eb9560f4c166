// The faults stage: the property suite whose checkers read histories — no
// overbooking, counters that reconcile with the routes that hold
// reservations, no acknowledged settlement lost — runs over HTTP while
// a nemesis breaks the registry (the proxy always; the embedded reference's
// own faults when it is the target; the vendor's commands when given).
// Operations whose answer was lost are indeterminate in those histories,
// never failures; what the suites then read back through the API must
// explain them as done once or not at all. Rounds repeat until enough faults
// fell inside them, bounded in rounds and time.
import { join } from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import type { NemesisRequest } from '../nemesis/open-nemesis.ts';
import { withNemesis } from '../nemesis/open-nemesis.ts';
import { replayFlags } from '../nemesis/nemesis-summary.ts';
import { resultDocument, type ResultDocument } from '../../properties/runner/result-document.ts';
import { runProperties, type PropertiesResult, type SuiteResult } from '../../properties/runner/run-properties.ts';
import { httpTarget } from '../../properties/targets/http-target.ts';
import type { Target } from '../../properties/targets/target.ts';
import { waitUntilReady } from '../nemesis/ready.ts';
import type { SuiteName } from '../../properties/suites/index.ts';
import type { Failure } from '../../reports/schemas/certification-result.ts';
import { FAULTS_SCHEMA, type FaultsDocument } from '../../reports/schemas/faults-result.ts';
import { PROPERTY_CLAUSES } from '../property-clauses.ts';
import { faultsStatus } from '../verdict.ts';
import { elapsed, type ClauseEvidence, type StageContext, type StageOutput } from './stage.ts';

/**
 * The suite whose checker reads a history with indeterminate operations in
 * it. The model-based suites are not run here: a run whose setup lost an
 * answer leaves records the model never saw on the registry, and their
 * leases expire into later runs' lease maintenance.
 */
export const FAULT_SUITES: readonly SuiteName[] = ['no-overbooking'];
/** What surviving faults establishes beyond the suites' own clauses. */
export const FAULT_CLAUSES = ['failure-storage', 'ops-ready'] as const;

export interface FaultsStageOptions {
  nemesis: NemesisRequest;
  /** Runs per suite and round; each suite's default otherwise. */
  runs?: number;
  suites?: readonly SuiteName[];
  /** Rounds go on until this many faults were injected… */
  minFaults?: number;
  /** …but no more rounds than this… */
  maxRounds?: number;
  /** …unless rounds must go on for at least this long (a soak under faults). */
  minDurationMs?: number;
  /** Round n runs with seed + n - 1; a random seed per round otherwise. */
  seed?: number;
}

const STATUS_OF = { pass: 'pass', fail: 'fail', error: 'error' } as const;
const DISTURBED_KEPT = 200;

const READY_BEFORE_RUN_MS = 120_000;

interface Rounds {
  /** The last round's result: the first that did not pass, or the last of passing ones. */
  result: PropertiesResult;
  rounds: number;
  /** Over every round. */
  runs: number;
  indeterminateRuns: number;
}

async function rounds(ctx: StageContext, o: FaultsStageOptions, url: string, bands: readonly unknown[]): Promise<Rounds> {
  const http = await httpTarget({ url, key: ctx.key, runId: ctx.runId, ...(ctx.auth ? { auth: ctx.auth } : {}) });
  // A run starts once the registry says it is ready, so an outage ends the
  // runs it catches instead of spinning through runs that cannot begin.
  const target: Target = { ...http, openRun: async () => (await waitUntilReady(ctx.targetUrl, READY_BEFORE_RUN_MS), http.openRun()), close: () => http.close() };
  try {
    let round = 0;
    let runs = 0;
    let indeterminateRuns = 0;
    let result: PropertiesResult;
    const started = performance.now();
    const more = () => bands.length < (o.minFaults ?? 3) || performance.now() - started < (o.minDurationMs ?? 0);
    const maxRounds = o.maxRounds ?? (o.minDurationMs ? 10_000 : 10);
    do {
      round++;
      ctx.log(`faults: round ${round}, ${bands.length} fault(s) so far`);
      result = await runProperties({ target, suites: o.suites ?? FAULT_SUITES, log: ctx.log, runId: ctx.runId, ...(o.runs !== undefined ? { runs: o.runs } : {}), ...(o.seed !== undefined ? { seed: o.seed + round - 1 } : {}) });
      runs += result.suites.reduce((n, s) => n + s.runs, 0);
      indeterminateRuns += result.suites.reduce((n, s) => n + s.indeterminateRuns, 0);
      if (result.suites.some((s) => s.status !== 'pass')) break;
    } while (more() && round < maxRounds);
    return { result, rounds: round, runs, indeterminateRuns };
  } finally {
    await target.close();
  }
}

export async function faultsStage(ctx: StageContext, o: FaultsStageOptions): Promise<StageOutput> {
  const started = performance.now();
  const replay = replayFlags(o.nemesis.kinds, o.nemesis.schedule, o.nemesis.seed);
  let doc: FaultsDocument;
  let properties: ResultDocument | null = null;
  let suites: SuiteResult[] = [];
  let totals = { rounds: 0, runs: 0, indeterminateRuns: 0 };
  try {
    const under = await withNemesis(o.nemesis, ctx.targetUrl, ctx.log, (url, _end, bands) => rounds(ctx, o, url, bands));
    totals = under.value;
    suites = under.value.result.suites;
    properties = await resultDocument(under.value.result, (s) => `npx fleetproof properties ${ctx.targetFlags} --suite ${s.name} --seed=${s.seed} --path '${s.path}'`);
    const noFaults = under.bands.length === 0 ? 'no fault fell inside the suites: the stage exercised nothing' : null;
    doc = {
      schema: FAULTS_SCHEMA,
      kinds: [...o.nemesis.kinds],
      replay,
      bands: under.bands,
      figures: under.figures,
      traffic: under.proxy?.traffic() ?? [],
      disturbed: (under.proxy?.ledger ?? []).slice(0, DISTURBED_KEPT).map(({ at, fate, method, path, status }) => ({ at: Math.round(at), fate, method, path, status })),
      error: noFaults,
      properties,
    };
  } catch (err) {
    doc = { schema: FAULTS_SCHEMA, kinds: [...o.nemesis.kinds], replay, bands: [], figures: { faults: 0, by_fault: {}, recovery_ms_max: null, recovery_ms_median: null, forwarded: 0, reset_before_forward: 0, lost_after_forward: 0 }, traffic: [], disturbed: [], error: (err as Error).message, properties };
  }
  await mkdir(join(ctx.out, 'faults'), { recursive: true });
  await writeFile(join(ctx.out, 'faults', 'result.json'), JSON.stringify(doc, null, 2) + '\n');
  const status = faultsStatus(doc);
  const clauseStatus: ClauseEvidence['status'] = status === 'passed' ? 'pass' : status === 'failed' ? 'fail' : 'error';
  const evidence: ClauseEvidence[] = [
    ...suites.flatMap((s) => PROPERTY_CLAUSES[s.name].map((clause) => ({ clause, kind: 'property' as const, id: `${s.name} under faults`, status: STATUS_OF[s.status] }))),
    ...FAULT_CLAUSES.map((clause) => ({ clause, kind: 'property' as const, id: 'faults stage', status: clauseStatus })),
  ];
  const failures: Failure[] = suites
    .filter((s) => s.status !== 'pass')
    .map((s) => ({
      stage: 'faults',
      subject: s.name,
      clause: PROPERTY_CLAUSES[s.name][0] ?? null,
      message: s.violation ? `${s.violation.property} under faults: ${s.violation.message}` : `could not judge under faults: ${s.error ?? 'unknown'}`,
      reproduce: [`npx fleetproof properties ${ctx.targetFlags} --suite ${s.name} --seed=${s.seed} ${replay}`, ...(s.counterexample ?? [])].join('\n'),
    }));
  const reasons = [...(doc.error ? [doc.error] : []), ...suites.filter((s) => s.status !== 'pass').map((s) => `${s.name}: ${s.status === 'fail' ? 'counterexample under faults' : 'could not judge under faults'}`)];
  const f = doc.figures;
  return {
    record: {
      name: 'faults',
      status,
      reasons,
      duration_ms: elapsed(started),
      result_file: 'faults/result.json',
      figures: {
        faults: f.faults,
        rounds: totals.rounds,
        runs: totals.runs,
        indeterminate_runs: totals.indeterminateRuns,
        requests: f.forwarded + f.reset_before_forward,
        lost_responses: f.lost_after_forward,
        resets: f.reset_before_forward,
        recovery_ms_max: f.recovery_ms_max ?? '-',
      },
    },
    evidence,
    failures,
  };
}
