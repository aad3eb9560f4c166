// histograms.json (fleetproof-load-histograms/v1): what one load run — one
// k6 instance, one execution segment — measured, in a form that merges
// exactly. Every metric point of the run's k6 JSON output is counted in the
// series of its metric named by the point's values of the recorded
// dimension tags (phase, operation, … and every tag a threshold filters on);
// other tags (url, status, method, name) are dropped, which keeps the file
// small and still answers every sub-metric a threshold or the report asks
// for. Per series: count, exact sum, min, max, non-zero count (rates), last
// value and its time (gauges), and for trends a histogram (histogram.ts).
// Merging runs adds all of these series by series.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { EXACT_MAX_DISTINCT, ExactSum, RELATIVE_ERROR, SUB_BUCKET_BITS, ValueHistogram, type HistogramJson } from './histogram.ts';
import {
  readMetricOutput,
  type MetricContains,
  type MetricDeclaration,
  type MetricPoint,
  type MetricType,
  type PointSink,
} from './k6-json-output.ts';

export const HISTOGRAMS_FORMAT = 'fleetproof-load-histograms/v1';
export const HISTOGRAMS_FILE = 'histograms.json';

/** Tags every run records series by, whatever its thresholds. */
export const BASE_DIMENSIONS = ['phase', 'operation', 'scenario', 'group', 'check', 'expected_response'] as const;

export interface ThresholdPlan {
  id: string;
  label: string;
  metric: string;
  expression: string;
  unit: string;
  source?: string;
}

/** The resolved profile a run executed: what every part of a merge must share. */
export interface ProfileIdentity {
  name: string;
  /** The scale contract's format, e.g. fleetproof-scale/v1. */
  format: string;
  phase_checks: string;
  duration_s: number | null;
  dataset: Record<string, number>;
  phases: { name: string; start?: string; budget_s?: number; params?: Record<string, number> }[];
  thresholds: ThresholdPlan[];
  overrides: string[];
  /** Sizes lowered to fit the target's declared limits; absent in histograms written before fitting existed. */
  fitted?: string[];
  /**
   * How the profile judges the generator and its budgets (scale-contract.ts
   * ProfileSpec); a merge judges by them as the run itself would. Absent in
   * histograms written before they were recorded: the contract's profile of
   * the same name then tells.
   */
  max_dropped_iterations?: number;
  budgets_judge_speed?: boolean;
}

export interface RunIdentity {
  run_id: string;
  /** Unique to the instance that ran (for a merge: every instance it holds). */
  instances: string[];
  profile: ProfileIdentity;
  /** k6's --execution-segment of the instance ("0:1" when the whole test ran there); null when unknown. */
  execution_segment: string | null;
  execution_segment_sequence: string | null;
  engine: { name: string; version: string } | null;
  target: string | null;
  started_at: string | null;
  /**
   * When setup ended and the scenarios' schedule began (a merge checks the parts began it together); absent
   * or null when the part did not record it.
   */
  load_started_at?: string | null;
  finished_at: string | null;
  /** k6's test run duration; counters' rate divides by it. */
  test_run_duration_ms: number | null;
}

export interface SeriesJson {
  tags: Record<string, string>;
  count: number;
  sum: number;
  sum_partials: number[];
  min: number | null;
  max: number | null;
  non_zero: number;
  last: number | null;
  last_at_ms: number | null;
  histogram?: HistogramJson;
}

export interface RunHistogramsJson {
  format: typeof HISTOGRAMS_FORMAT;
  scheme: { exact_max_distinct: number; sub_bucket_bits: number; relative_error: number; sum: 'exact' };
  run: RunIdentity;
  dimensions: string[];
  /** The raw k6 JSON output the histograms were built from, if kept. */
  raw: { file: string | null; lines: number; bytes: number; sha256: string } | null;
  metrics: Record<string, { type: MetricType; contains: MetricContains; series: SeriesJson[] }>;
}

/** One series, or several series added together. */
export class SeriesStats {
  count = 0;
  sum = new ExactSum();
  min = Infinity;
  max = -Infinity;
  nonZero = 0;
  last = 0;
  lastAt = -Infinity;
  readonly histogram: ValueHistogram | null;

  constructor(
    readonly type: MetricType,
    readonly tags: Record<string, string> = {},
  ) {
    this.histogram = type === 'trend' ? new ValueHistogram() : null;
  }

  add(value: number, atMs: number): void {
    this.count++;
    this.sum.add(value);
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    if (value !== 0) this.nonZero++;
    this.takeLast(value, atMs);
    this.histogram?.add(value);
  }

  /** The latest value wins; at the same instant the larger, so the result never depends on arrival order. */
  private takeLast(value: number, atMs: number): void {
    if (atMs > this.lastAt || (atMs === this.lastAt && value > this.last)) {
      this.last = value;
      this.lastAt = atMs;
    }
  }

  merge(o: SeriesStats): void {
    if (o.count === 0) return;
    this.count += o.count;
    this.sum.merge(o.sum);
    this.min = Math.min(this.min, o.min);
    this.max = Math.max(this.max, o.max);
    this.nonZero += o.nonZero;
    this.takeLast(o.last, o.lastAt);
    if (this.histogram && o.histogram) this.histogram.merge(o.histogram);
  }

  toJSON(): SeriesJson {
    const empty = this.count === 0;
    return {
      tags: this.tags,
      count: this.count,
      sum: this.sum.value(),
      sum_partials: [...this.sum.partials],
      min: empty ? null : this.min,
      max: empty ? null : this.max,
      non_zero: this.nonZero,
      last: empty ? null : this.last,
      last_at_ms: empty ? null : this.lastAt,
      ...(this.histogram ? { histogram: this.histogram.toJSON() } : {}),
    };
  }

  static fromJSON(type: MetricType, j: SeriesJson): SeriesStats {
    const s = new SeriesStats(type, j.tags);
    s.count = j.count;
    s.sum = ExactSum.of(j.sum_partials);
    if (j.count > 0) {
      s.min = j.min ?? 0;
      s.max = j.max ?? 0;
      s.last = j.last ?? 0;
      s.lastAt = j.last_at_ms ?? -Infinity;
    }
    s.nonZero = j.non_zero;
    if (type === 'trend') {
      if (!j.histogram) throw new Error('a trend series without its histogram');
      s.histogram!.merge(ValueHistogram.fromJSON(j.histogram));
    }
    return s;
  }
}

const seriesKey = (tags: Record<string, string>) =>
  Object.keys(tags)
    .sort()
    .map((k) => `${k}\u001f${tags[k]}`)
    .join('\u001e');

export class MetricSeries {
  readonly series = new Map<string, SeriesStats>();
  constructor(
    readonly type: MetricType,
    readonly contains: MetricContains,
  ) {}

  seriesFor(tags: Record<string, string>): SeriesStats {
    const key = seriesKey(tags);
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = new SeriesStats(this.type, tags)));
    return s;
  }

  /** The series whose tags include every filter tag, added together (k6's sub-metric). */
  aggregate(filter: Record<string, string> = {}): SeriesStats {
    const out = new SeriesStats(this.type);
    const wanted = Object.entries(filter);
    for (const s of this.series.values()) if (wanted.every(([k, v]) => s.tags[k] === v)) out.merge(s);
    return out;
  }
}

export class RunHistograms implements PointSink {
  readonly metrics = new Map<string, MetricSeries>();
  raw: RunHistogramsJson['raw'] = null;
  private readonly dims: string[];

  constructor(
    public run: RunIdentity,
    dimensions: readonly string[],
  ) {
    this.dims = [...new Set(dimensions)].sort();
  }

  get dimensions(): string[] {
    return [...this.dims];
  }

  declare(d: MetricDeclaration): void {
    const existing = this.metrics.get(d.name);
    if (existing && existing.type !== d.type) throw new Error(`metric ${d.name} is both a ${existing.type} and a ${d.type}`);
    if (!existing) this.metrics.set(d.name, new MetricSeries(d.type, d.contains));
  }

  point(p: MetricPoint): void {
    const metric = this.metrics.get(p.metric);
    if (!metric) throw new Error(`a point of ${p.metric} before its Metric line`);
    const tags: Record<string, string> = {};
    for (const d of this.dims) {
      const v = p.tags[d];
      if (v !== undefined) tags[d] = v;
    }
    metric.seriesFor(tags).add(p.value, p.timeMs);
  }

  /** Adds another run's series into this one (the identities are the caller's business). */
  mergeFrom(other: RunHistograms): void {
    if (other.dims.join() !== this.dims.join()) throw new Error('runs recorded with different dimensions cannot be merged');
    for (const [name, m] of other.metrics) {
      const mine = this.metrics.get(name);
      if (mine && mine.type !== m.type) throw new Error(`metric ${name} is a ${mine.type} in one run and a ${m.type} in another`);
      const target = mine ?? new MetricSeries(m.type, m.contains);
      this.metrics.set(name, target);
      for (const s of m.series.values()) target.seriesFor(s.tags).merge(s);
    }
  }

  toJSON(): RunHistogramsJson {
    const metrics: RunHistogramsJson['metrics'] = {};
    for (const name of [...this.metrics.keys()].sort()) {
      const m = this.metrics.get(name)!;
      const series = [...m.series.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, s]) => s.toJSON());
      metrics[name] = { type: m.type, contains: m.contains, series };
    }
    return {
      format: HISTOGRAMS_FORMAT,
      scheme: { exact_max_distinct: EXACT_MAX_DISTINCT, sub_bucket_bits: SUB_BUCKET_BITS, relative_error: RELATIVE_ERROR, sum: 'exact' },
      run: this.run,
      dimensions: this.dimensions,
      raw: this.raw,
      metrics,
    };
  }

  static fromJSON(j: RunHistogramsJson): RunHistograms {
    if (j.format !== HISTOGRAMS_FORMAT) throw new Error(`format ${JSON.stringify(j.format)}, not ${HISTOGRAMS_FORMAT}`);
    if (j.scheme?.sub_bucket_bits !== SUB_BUCKET_BITS || j.scheme?.exact_max_distinct !== EXACT_MAX_DISTINCT) {
      throw new Error(`histograms built with another scheme (${JSON.stringify(j.scheme)})`);
    }
    const h = new RunHistograms(j.run, j.dimensions);
    h.raw = j.raw;
    for (const [name, m] of Object.entries(j.metrics)) {
      const series = new MetricSeries(m.type, m.contains);
      for (const s of m.series) series.seriesFor(s.tags).merge(SeriesStats.fromJSON(m.type, s));
      h.metrics.set(name, series);
    }
    return h;
  }
}

/** The dimensions a run records: the base ones and every tag the profile's thresholds filter on. */
export function dimensionsFor(thresholdMetrics: readonly string[]): string[] {
  const dims = new Set<string>(BASE_DIMENSIONS);
  for (const key of thresholdMetrics) {
    const open = key.indexOf('{');
    if (open === -1) continue;
    for (const pair of key.slice(open + 1, key.lastIndexOf('}')).split(',')) {
      const name = pair.slice(0, pair.indexOf(':')).trim();
      if (name) dims.add(name);
    }
  }
  return [...dims].sort();
}

/** A fresh instance id: 16 random bytes in hex. */
export function newInstanceId(): string {
  return randomBytes(16).toString('hex');
}

/** Builds a run's histograms from its k6 JSON output; `keptAs` names the raw file the run keeps, if any. */
export async function histogramsFromOutput(
  path: string,
  run: RunIdentity,
  dimensions: string[],
  keptAs: string | null,
): Promise<RunHistograms> {
  const h = new RunHistograms(run, dimensions);
  const read = await readMetricOutput(path, h);
  h.raw = { file: keptAs, lines: read.lines, bytes: read.bytes, sha256: read.sha256 };
  return h;
}

export async function writeRunHistograms(path: string, h: RunHistograms): Promise<void> {
  await writeFile(path, JSON.stringify(h.toJSON()) + '\n');
}

export async function readRunHistograms(path: string): Promise<RunHistograms> {
  return RunHistograms.fromJSON(JSON.parse(await readFile(path, 'utf8')) as RunHistogramsJson);
}
