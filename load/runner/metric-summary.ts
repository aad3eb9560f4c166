// The end-of-test summary k6 users expect, from the run's raw metric output:
// per metric its type, count, rate per second of the test, and for trends
// the percentiles k6 prints (p50, p90, p95, p99, with k6's interpolation),
// for rates the share of non-zero points. Sub-metrics (tags) are summed into
// their metric; the report's thresholds and phases carry the tagged figures.
import { ValueHistogram } from '../histograms/histogram.ts';
import type { MetricContains, MetricDeclaration, MetricPoint, MetricType } from '../histograms/k6-json-output.ts';

export interface MetricRow {
  metric: string;
  type: MetricType;
  /** What the values are: times in ms, data in bytes, or plain numbers (k6's metric declaration). */
  contains: MetricContains;
  count: number;
  /** Points per second over the test's duration (k6's `rate` for counters sums values instead: see `sum`). */
  per_second: number | null;
  sum: number;
  /** Rates: the share of non-zero points. */
  ratio: number | null;
  min: number | null;
  max: number | null;
  avg: number | null;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
}

interface Accumulator {
  type: MetricType;
  contains: MetricContains;
  count: number;
  sum: number;
  nonZero: number;
  min: number;
  max: number;
  histogram: ValueHistogram | null;
}

export class MetricSummarySink {
  private readonly metrics = new Map<string, Accumulator>();
  private first = Infinity;
  private last = -Infinity;

  declare(d: MetricDeclaration): void {
    if (!this.metrics.has(d.name))
      this.metrics.set(d.name, {
        type: d.type,
        contains: d.contains,
        count: 0,
        sum: 0,
        nonZero: 0,
        min: Infinity,
        max: -Infinity,
        histogram: d.type === 'trend' ? new ValueHistogram() : null,
      });
  }

  point(p: MetricPoint): void {
    const m = this.metrics.get(p.metric);
    if (!m) return;
    m.count++;
    m.sum += p.value;
    if (p.value !== 0) m.nonZero++;
    m.min = Math.min(m.min, p.value);
    m.max = Math.max(m.max, p.value);
    m.histogram?.add(p.value);
    this.first = Math.min(this.first, p.timeMs);
    this.last = Math.max(this.last, p.timeMs);
  }

  /** One row per metric that has points, by name; `durationMs` is the test's (k6's test run duration) when known. */
  rows(durationMs: number | null): MetricRow[] {
    const seconds = (durationMs ?? (this.last > this.first ? this.last - this.first : 0)) / 1000;
    return [...this.metrics]
      .filter(([, m]) => m.count > 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([metric, m]) => {
        const pct = (p: number) => (m.histogram ? m.histogram.percentile(p, m.min, m.max) : null);
        return {
          metric,
          type: m.type,
          contains: m.contains,
          count: m.count,
          per_second: seconds > 0 ? (m.type === 'counter' ? m.sum : m.count) / seconds : null,
          sum: m.sum,
          ratio: m.type === 'rate' ? m.nonZero / m.count : null,
          min: m.min,
          max: m.max,
          avg: m.sum / m.count,
          p50: pct(50),
          p90: pct(90),
          p95: pct(95),
          p99: pct(99),
        };
      });
  }
}
