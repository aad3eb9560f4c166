// Two runs side by side: their verdicts, what produced each (harness,
// contract revision, case set), the conformance cases and property suites
// whose status changed, and the latency per phase and percentile with its
// change. A latency change counts as a regression only beyond a noise band
// computed from the two runs themselves: for each phase and percentile, the
// larger of 10 % and each run's spread of that percentile in that phase
// between its time intervals (the interquartile range of the per-interval
// values over their median, from intervals of at least 20 requests). A run's
// own spread is how much the figure moves with nothing changed; a difference
// smaller than that is not evidence of anything. A phase with too few
// requests for its percentiles to mean much is not compared. Runs of
// different kinds (a certification and a load run) are compared on the
// results both hold, verdicts included; with none in common, not at all.
import type { RunDocuments, RunPart } from './read-run.ts';
import type { MaybeUnderFaults } from '../../load/runner/judge-under-faults.ts';
import type { VerdictKey } from '../../client/verdict-words.ts';
import type { PhaseBucket } from '../../load/runner/time-series.ts';

export const BAND_FLOOR_PCT = 10;
/** An interval with fewer requests than this says too little about its percentiles to count towards the spread. */
export const MIN_INTERVAL_REQUESTS = 20;
/** Below this many such intervals a run's spread is not computed, and the floor alone makes the band. */
export const MIN_INTERVALS = 4;
/** A phase is compared where each run made at least this many requests in it: fewer say little of a p99. */
export const MIN_PHASE_REQUESTS = 100;

export const PERCENTILES = [
  { name: 'p50', phaseKey: 'med', bucketKey: 'p50_ms' },
  { name: 'p95', phaseKey: 'p(95)', bucketKey: 'p95_ms' },
  { name: 'p99', phaseKey: 'p(99)', bucketKey: 'p99_ms' },
] as const;
export type PercentileName = (typeof PERCENTILES)[number]['name'];

export interface StatusChange {
  id: string;
  a: string | null;
  b: string | null;
  /** worse: it passed before and does not now (or is gone); better: the reverse; changed: anything else. */
  direction: 'worse' | 'better' | 'changed';
}

export interface LatencyRow {
  phase: string;
  percentile: PercentileName;
  a_ms: number;
  b_ms: number;
  delta_pct: number;
  /** Each run's spread of this percentile in this phase between intervals, in %; null where it had too few intervals to say. */
  spread_a_pct: number | null;
  spread_b_pct: number | null;
  band_pct: number;
  /** not judged: the runs' load generators differ, so the change is no evidence either way. */
  flag: 'regression' | 'improvement' | 'within band' | 'not judged';
}

export interface Comparison {
  a: RunSide;
  b: RunSide;
  /** The runs' verdicts; for runs of different kinds, those of the one result both hold (`of`). */
  verdict: { a: VerdictKey; b: VerdictKey; direction: 'worse' | 'better' | 'same'; of: 'run' | RunPart };
  same_case_set: boolean | null;
  cases: { changed: StatusChange[]; added: string[]; removed: string[] } | null;
  properties: StatusChange[] | null;
  latency: LatencyRow[] | null;
  /** What a reader should know about what could not be compared. */
  notes: string[];
  regressions: number;
}

export interface RunSide {
  dir: string;
  kind: RunDocuments['kind'];
  identity: RunDocuments['identity'];
}

const RANK: Record<VerdictKey, number> = { qualified: 0, 'could-not-judge': 1, 'could-not-run': 1, 'non-conformant': 2 };
const PASSING = new Set(['pass', 'hold']);

function statusChanges(a: Map<string, string>, b: Map<string, string>): StatusChange[] {
  const out: StatusChange[] = [];
  for (const [id, before] of a) {
    const after = b.get(id);
    if (after === undefined || after === before) continue;
    const direction =
      PASSING.has(before) && !PASSING.has(after) ? 'worse' : !PASSING.has(before) && PASSING.has(after) ? 'better' : 'changed';
    out.push({ id, a: before, b: after, direction });
  }
  return out.sort((x, y) => (x.direction === y.direction ? x.id.localeCompare(y.id) : x.direction === 'worse' ? -1 : 1));
}

const quantile = (sorted: number[], q: number) => {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (at - lo);
};

/** A phase's spread of one percentile between its intervals: (Q3 − Q1) / median of the per-interval values, in %. */
export function intervalSpread(buckets: readonly PhaseBucket[] | undefined, key: (typeof PERCENTILES)[number]['bucketKey']): number | null {
  const values = (buckets ?? [])
    .filter((b) => b.requests >= MIN_INTERVAL_REQUESTS && b[key] !== null)
    .map((b) => b[key]!)
    .sort((x, y) => x - y);
  if (values.length < MIN_INTERVALS) return null;
  const median = quantile(values, 0.5);
  return median > 0 ? ((quantile(values, 0.75) - quantile(values, 0.25)) / median) * 100 : null;
}

function latency(a: MaybeUnderFaults, b: MaybeUnderFaults, notes: string[]): LatencyRow[] {
  const rows: LatencyRow[] = [];
  const few: string[] = [];
  for (const pa of a.phases) {
    const pb = b.phases.find((x) => x.name === pa.name);
    if (!pa.latency_ms || !pb?.latency_ms) continue;
    if (pa.requests < MIN_PHASE_REQUESTS || pb.requests < MIN_PHASE_REQUESTS) {
      few.push(pa.name);
      continue;
    }
    for (const p of PERCENTILES) {
      const va = pa.latency_ms[p.phaseKey];
      const vb = pb.latency_ms[p.phaseKey];
      if (va === undefined || vb === undefined || !(va > 0)) continue;
      const spreadA = intervalSpread(a.over_time?.by_phase?.[pa.name], p.bucketKey);
      const spreadB = intervalSpread(b.over_time?.by_phase?.[pa.name], p.bucketKey);
      const band = Math.max(BAND_FLOOR_PCT, spreadA ?? 0, spreadB ?? 0);
      const delta = ((vb - va) / va) * 100;
      rows.push({
        phase: pa.name,
        percentile: p.name,
        a_ms: va,
        b_ms: vb,
        delta_pct: delta,
        spread_a_pct: spreadA,
        spread_b_pct: spreadB,
        band_pct: band,
        flag: delta > band ? 'regression' : delta < -band ? 'improvement' : 'within band',
      });
    }
  }
  if (few.length) notes.push(`Not compared, fewer than ${MIN_PHASE_REQUESTS} requests in a run: ${few.join(', ')}.`);
  return rows;
}

const caseStatuses = (r: RunDocuments) => new Map((r.conformance?.cases ?? []).map((c) => [c.id, c.status]));
const suiteStatuses = (r: RunDocuments) => new Map((r.properties?.suites ?? []).map((s) => [s.name, s.status]));

/** Two runs of different kinds that hold no result of the same kind. */
export class RunsNotComparable extends Error {}

const PARTS: readonly RunPart[] = ['conformance', 'properties', 'load'];
const PART_WORDS: Record<RunPart, string> = { conformance: 'conformance results', properties: 'property results', load: 'load reports' };

/** Which verdicts compare: the runs', or, for runs of different kinds, those of the result both hold. */
function comparedVerdicts(a: RunDocuments, b: RunDocuments, notes: string[]): Pick<Comparison['verdict'], 'a' | 'b' | 'of'> {
  if (a.kind === b.kind) return { a: a.verdict, b: b.verdict, of: 'run' };
  const shared = PARTS.filter((k) => a[k] && b[k]);
  const part = shared[0];
  if (part === undefined)
    throw new RunsNotComparable(
      `${a.dir} is a ${a.kind} run and ${b.dir} a ${b.kind} run: they hold no result of the same kind to compare`,
    );
  notes.push(
    `A is a ${a.kind} run and B a ${b.kind} run: only their ${PART_WORDS[part]} are compared, and the verdicts are those of the ${part}, not of either run as a whole.`,
  );
  return { a: a.verdicts[part]!, b: b.verdicts[part]!, of: part };
}

export function compareRuns(a: RunDocuments, b: RunDocuments): Comparison {
  const notes: string[] = [];
  const verdicts = comparedVerdicts(a, b, notes);
  const sameKind = a.kind === b.kind;
  // Runs of different kinds ran the same cases where the one result both hold did: its own case set says.
  const caseSetOf = (r: RunDocuments) => (verdicts.of === 'run' ? r.identity.caseSet?.digest : r[verdicts.of]?.case_set?.digest);
  const digestA = caseSetOf(a);
  const digestB = caseSetOf(b);
  const sameCaseSet = digestA && digestB ? digestA === digestB : null;
  if (sameCaseSet === false)
    notes.push('The two runs ran different case sets: a case added or removed is listed below, not counted as a change.');
  if (sameCaseSet === null)
    notes.push(
      'A run does not record its case set (an older harness): whether both ran the same cases is read from their case lists only.',
    );
  if (a.identity.contract !== b.identity.contract)
    notes.push(
      `The runs were judged by different contract revisions (${a.identity.contract ?? 'not recorded'}, ${b.identity.contract ?? 'not recorded'}): a result can move between revisions.`,
    );
  if (a.identity.harness !== b.identity.harness) notes.push('The runs were made by different harness versions or commits.');

  let cases: Comparison['cases'] = null;
  if (a.conformance && b.conformance) {
    const sa = caseStatuses(a);
    const sb = caseStatuses(b);
    cases = {
      changed: statusChanges(sa, sb),
      added: [...sb.keys()].filter((id) => !sa.has(id)).sort(),
      removed: [...sa.keys()].filter((id) => !sb.has(id)).sort(),
    };
  } else if (sameKind && (a.conformance || b.conformance)) notes.push('Only one of the runs has conformance results.');
  const properties = a.properties && b.properties ? statusChanges(suiteStatuses(a), suiteStatuses(b)) : null;
  let rows: LatencyRow[] | null = null;
  if (a.load && b.load) {
    rows = latency(a.load, b.load, notes);
    // Another version of the same engine times requests as it did: only another engine is another instrument.
    const engines = [a.load, b.load].map((l) => l.environment.engine.name);
    if (engines[0] !== engines[1]) {
      // Two clients time a request differently: what moved may be the instrument, not the registry.
      rows = rows.map((r) => ({ ...r, flag: 'not judged' }));
      notes.push(
        `The load ran on different engines (${engines.join(', ')}): their latencies are shown, not judged, since each engine times requests its own way.`,
      );
    }
    if (a.load.profile !== b.load.profile)
      notes.push(`The load ran different profiles (${a.load.profile}, ${b.load.profile}): phases of the same name are compared.`);
  } else if (sameKind && (a.load || b.load)) notes.push('Only one of the runs has a load report.');
  const direction = RANK[verdicts.b] > RANK[verdicts.a] ? 'worse' : RANK[verdicts.b] < RANK[verdicts.a] ? 'better' : 'same';
  const regressions =
    (direction === 'worse' ? 1 : 0) +
    (cases?.changed.filter((c) => c.direction === 'worse').length ?? 0) +
    (properties?.filter((c) => c.direction === 'worse').length ?? 0) +
    (rows?.filter((r) => r.flag === 'regression').length ?? 0);
  const side = (r: RunDocuments): RunSide => ({ dir: r.dir, kind: r.kind, identity: r.identity });
  return {
    a: side(a),
    b: side(b),
    verdict: { ...verdicts, direction },
    same_case_set: sameCaseSet,
    cases,
    properties,
    latency: rows,
    notes,
    regressions,
  };
}
