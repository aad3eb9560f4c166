// The Node runner's metric store: every sample counted by metric and by tag
// set, and aggregation of a metric or a tag-filtered sub-metric the way k6
// computes it. Trends keep their values in the histograms the merge of a
// distributed run uses (exact while a series holds at most 1024 distinct
// values, then log-linear buckets within 0.049 %), so memory stays bounded
// however long the run, and a part's figures and the merge's are one scheme.
import { ValueHistogram } from '../../histograms/histogram.ts';

export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';

export interface Sample {
  metric: string;
  type: MetricType;
  time: boolean;
  value: number;
  tags: Record<string, string>;
  /** Milliseconds since the epoch. */
  at: number;
}

interface Series {
  tags: Record<string, string>;
  /** Trends only. */
  values: ValueHistogram | null;
  count: number;
  sum: number;
  min: number;
  max: number;
  last: number;
  lastAt: number;
  nonZero: number;
}

interface StoredMetric {
  type: MetricType;
  time: boolean;
  series: Map<string, Series>;
  /** Series by the tags' JSON as they arrive: one emitting site sends its tags in one order, so this skips sorting them. */
  byArrival: Map<string, Series>;
}

/** A metric or sub-metric, aggregated over every series it covers. */
export interface Aggregate {
  type: MetricType;
  time: boolean;
  count: number;
  sum: number;
  min: number;
  max: number;
  last: number;
  nonZero: number;
  /** Trends only. */
  values: ValueHistogram;
}

/** k6's percentile over raw values: linear interpolation between the closest ranks (TrendSink.P); what the histograms are checked against. */
export function percentile(sorted: readonly number[], pct: number): number {
  if (sorted.length === 0) return 0;
  if (sorted.length === 1) return sorted[0]!;
  const i = (pct / 100) * (sorted.length - 1);
  const lower = sorted[Math.floor(i)]!;
  const upper = sorted[Math.ceil(i)]!;
  return lower + (upper - lower) * (i - Math.floor(i));
}

const seriesKey = (tags: Record<string, string>) =>
  Object.keys(tags)
    .sort()
    .map((k) => `${k}\u001f${tags[k]}`)
    .join('\u001e');

export class MetricStore {
  private readonly metrics = new Map<string, StoredMetric>();
  /**
   * The tags object of the last sample and its JSON: the samples of one
   * request arrive together with one tags object (vu-state.js emit), so
   * they are keyed once. (A WeakMap would do the same for every object, at
   * a cost to every garbage collection.)
   */
  private lastTags: Record<string, string> | null = null;
  private lastTagsJson = '';

  declare(name: string, type: MetricType, time: boolean): void {
    const existing = this.metrics.get(name);
    if (existing && existing.type !== type) throw new Error(`metric ${name} is both a ${existing.type} and a ${type}`);
    if (!existing) this.metrics.set(name, { type, time, series: new Map(), byArrival: new Map() });
  }

  add(sample: Sample): void {
    this.declare(sample.metric, sample.type, sample.time);
    const metric = this.metrics.get(sample.metric)!;
    if (sample.tags !== this.lastTags) {
      this.lastTags = sample.tags;
      this.lastTagsJson = JSON.stringify(sample.tags);
    }
    const series = metric.byArrival.get(this.lastTagsJson) ?? this.seriesOf(metric, sample.tags, this.lastTagsJson);
    const v = sample.value;
    series.values?.add(v);
    series.count++;
    series.sum += v;
    series.min = Math.min(series.min, v);
    series.max = Math.max(series.max, v);
    if (sample.at >= series.lastAt) {
      series.last = v;
      series.lastAt = sample.at;
    }
    if (v !== 0) series.nonZero++;
  }

  private seriesOf(metric: StoredMetric, tags: Record<string, string>, arrival: string): Series {
    const key = seriesKey(tags);
    let series = metric.series.get(key);
    if (!series) {
      series = {
        tags,
        values: metric.type === 'trend' ? new ValueHistogram() : null,
        count: 0,
        sum: 0,
        min: Infinity,
        max: -Infinity,
        last: 0,
        lastAt: -Infinity,
        nonZero: 0,
      };
      metric.series.set(key, series);
    }
    metric.byArrival.set(arrival, series);
    return series;
  }

  has(name: string): boolean {
    return this.metrics.has(name);
  }

  typeOf(name: string): MetricType | undefined {
    return this.metrics.get(name)?.type;
  }

  names(): string[] {
    return [...this.metrics.keys()].sort();
  }

  /** Passes and fails of the checks metric per tag set (group, check). */
  checkCounts(): { tags: Record<string, string>; passes: number; fails: number }[] {
    const checks = this.metrics.get('checks');
    if (!checks) return [];
    return [...checks.series.values()].map((s) => ({ tags: s.tags, passes: s.nonZero, fails: s.count - s.nonZero }));
  }

  /** The metric restricted to samples whose tags include every filter tag. */
  aggregate(name: string, filter: Record<string, string> = {}): Aggregate | undefined {
    const metric = this.metrics.get(name);
    if (!metric) return undefined;
    const out: Aggregate = {
      type: metric.type,
      time: metric.time,
      count: 0,
      sum: 0,
      min: Infinity,
      max: -Infinity,
      last: 0,
      nonZero: 0,
      values: new ValueHistogram(),
    };
    let lastAt = -Infinity;
    const wanted = Object.entries(filter);
    for (const s of metric.series.values()) {
      if (!wanted.every(([k, v]) => s.tags[k] === v)) continue;
      if (s.count === 0) continue;
      out.count += s.count;
      out.sum += s.sum;
      out.min = Math.min(out.min, s.min);
      out.max = Math.max(out.max, s.max);
      out.nonZero += s.nonZero;
      if (s.lastAt >= lastAt) {
        lastAt = s.lastAt;
        out.last = s.last;
      }
      if (s.values) out.values.merge(s.values);
    }
    if (out.count === 0) {
      out.min = 0;
      out.max = 0;
    }
    return out;
  }
}

/** The value of one aggregation of a metric, as k6's thresholds and summary name it. */
export function aggregationValue(a: Aggregate, aggregation: string, testDurationMs: number): number | undefined {
  const p = /^p\(([0-9]+(?:\.[0-9]+)?)\)$/.exec(aggregation);
  switch (a.type) {
    case 'trend':
      if (p) return a.values.percentile(Number(p[1]), a.min, a.max);
      if (aggregation === 'avg') return a.count === 0 ? 0 : a.sum / a.count;
      if (aggregation === 'min') return a.min;
      if (aggregation === 'max') return a.max;
      if (aggregation === 'med') return a.values.percentile(50, a.min, a.max);
      if (aggregation === 'count') return a.count;
      return undefined;
    case 'counter':
      if (aggregation === 'count') return a.sum;
      if (aggregation === 'rate') return testDurationMs > 0 ? a.sum / (testDurationMs / 1000) : 0;
      return undefined;
    case 'rate':
      if (aggregation === 'rate') return a.count === 0 ? 0 : a.nonZero / a.count;
      if (aggregation === 'passes') return a.nonZero;
      if (aggregation === 'fails') return a.count - a.nonZero;
      return undefined;
    case 'gauge':
      if (aggregation === 'value') return a.last;
      if (aggregation === 'min') return a.min;
      if (aggregation === 'max') return a.max;
      return undefined;
  }
}

/** The aggregations a threshold may use on each metric type (k6 refuses the others). */
export const THRESHOLD_AGGREGATIONS: Record<MetricType, RegExp> = {
  trend: /^(avg|min|max|med|p\([0-9]+(\.[0-9]+)?\))$/,
  counter: /^(count|rate)$/,
  rate: /^rate$/,
  gauge: /^value$/,
};
