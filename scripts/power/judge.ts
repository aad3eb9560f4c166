// One defect against the suites on one store: conformance (the cases of the
// defect's clause, widened to their categories when those catch nothing) and
// the property suites that claim the clause, with a fixed seed. The defect
// is killed when anything fails; a run that could not judge says so rather
// than counting as either.
import { performance } from 'node:perf_hooks';
import type { ConformConfig } from '../../conformance/runner/config.ts';
import { runConformance, type ConformOutcome } from '../../conformance/runner/run.ts';
import { startReferenceTarget } from '../../conformance/test/reference-target.ts';
import { referenceMemoryTarget, referencePostgresTarget } from '../../cli/reference-targets.ts';
import { runProperties } from '../../properties/runner/run-properties.ts';
import { httpTarget } from '../../properties/targets/http-target.ts';
import type { Target } from '../../properties/targets/target.ts';
import { startReferenceServer } from '../../properties/test/reference-server.ts';
import type { Defect } from '../../reference/defects/defect.ts';
import { defectiveMemoryStore, defectivePostgresOpener } from '../../reference/defects/defective.ts';
import type { StoreKind } from '../../reference/store/open-store.ts';
import type { Plan } from './plan.ts';

export type Verdict = 'killed' | 'survived' | 'could not judge';

export interface Judgement {
  readonly defect: string;
  readonly clause: string;
  readonly store: StoreKind;
  readonly verdict: Verdict;
  /** What failed: `case-id [clause it broke]` or `property suite-name [property]`. */
  readonly caughtBy: readonly string[];
  /** Whether a failure broke the defect's own clause. */
  readonly onItsClause: boolean;
  /** Whether the cases of the clause alone caught nothing and their categories ran whole. */
  readonly widened: boolean;
  /** Why parts of the run could not judge. */
  readonly notes: readonly string[];
  readonly seconds: number;
}

export interface JudgeOptions {
  store: StoreKind;
  /** The database of a PostgreSQL run (owner URL); it is migrated when opened. */
  pgUrl?: string;
  seed: number;
  /** Leave the property suites out (the fast subset of `npm test`). */
  conformanceOnly?: boolean;
}

interface Found {
  caught: string[];
  onClause: boolean;
  notes: string[];
}

function conformanceFindings(outcome: ConformOutcome, clause: string): Found {
  // A target the preflight refuses for breaking this very clause cannot qualify: that is a catch, not a run that could not judge.
  if (!outcome.result && outcome.error?.includes(`[${clause}]`)) return { caught: [`preflight [${clause}]`], onClause: true, notes: [] };
  if (!outcome.result) return { caught: [], onClause: false, notes: [`conformance could not run: ${outcome.error}`] };
  const failed = outcome.result.cases.filter((c) => c.status === 'fail');
  const errors = outcome.result.cases.filter((c) => c.status === 'error');
  return {
    caught: failed.map((c) => `${c.id} [${c.failure_clause ?? c.clause}]`),
    onClause: failed.some((c) => (c.failure_clause ?? c.clause) === clause || c.clause === clause),
    notes: errors.map((c) => `${c.id} ended in error: ${c.message}`),
  };
}

async function conformance(defect: Defect, plan: Plan, o: JudgeOptions): Promise<Found & { widened: boolean }> {
  const target = await startReferenceTarget({ defect: defect.name, store: o.store, ...(o.pgUrl ? { pgUrl: o.pgUrl } : {}), silent: true });
  try {
    const run = (selection: Pick<ConformConfig, 'cases' | 'categories'>) =>
      runConformance({ config: target.config(selection), signingKey: target.key, writeReports: false });
    const own = conformanceFindings(await run({ cases: [...plan.cases], categories: [] }), defect.clause);
    if (own.caught.length > 0 || plan.categories.length === 0) return { ...own, widened: false };
    const wide = conformanceFindings(await run({ cases: [], categories: [...plan.categories] }), defect.clause);
    return { ...wide, notes: [...own.notes, ...wide.notes], widened: true };
  } finally {
    await target.close();
  }
}

/** The property target for the defect: in-process for a store's defects, over HTTP for the server's. */
async function propertyTarget(defect: Defect, o: JudgeOptions): Promise<{ target: Target; close(): Promise<void> }> {
  const named = `with defect ${defect.name}`;
  if (o.store === 'postgres') {
    const target = await referencePostgresTarget({ ...(o.pgUrl ? { url: o.pgUrl } : {}), open: defectivePostgresOpener(defect), named });
    return { target, close: () => target.close() };
  }
  if (defect.layer !== 'http') {
    const target = referenceMemoryTarget({ open: (options) => defectiveMemoryStore(defect, options), named });
    return { target, close: () => target.close() };
  }
  const server = await startReferenceServer({ defect: defect.name });
  const target = await httpTarget({ url: server.url, key: server.key });
  return { target, close: async () => (await target.close(), await server.close()) };
}

async function properties(defect: Defect, plan: Plan, o: JudgeOptions): Promise<Found> {
  if (plan.suites.length === 0 || o.conformanceOnly) return { caught: [], onClause: false, notes: [] };
  const { target, close } = await propertyTarget(defect, o);
  try {
    const result = await runProperties({ target, suites: plan.suites, seed: o.seed, env: {} });
    const failed = result.suites.filter((s) => s.status === 'fail');
    return {
      caught: failed.map((s) => `property ${s.name} [${s.violation?.property ?? s.property}]`),
      onClause: failed.length > 0,
      notes: result.suites.filter((s) => s.status === 'error').map((s) => `property ${s.name} could not judge: ${s.error}`),
    };
  } finally {
    await close();
  }
}

export async function judge(defect: Defect, plan: Plan, o: JudgeOptions): Promise<Judgement> {
  const started = performance.now();
  const cases = await conformance(defect, plan, o);
  const props = await properties(defect, plan, o);
  const caughtBy = [...cases.caught, ...props.caught];
  const notes = [...cases.notes, ...props.notes];
  const judged = plan.cases.length > 0 || (plan.suites.length > 0 && !o.conformanceOnly);
  return {
    defect: defect.name,
    clause: defect.clause,
    store: o.store,
    verdict: caughtBy.length > 0 ? 'killed' : notes.length > 0 || !judged ? 'could not judge' : 'survived',
    caughtBy,
    onItsClause: cases.onClause || props.onClause,
    widened: cases.widened,
    notes,
    seconds: (performance.now() - started) / 1000,
  };
}
