// Aggregations and thresholds over histograms, in k6's grammar and with
// k6's meanings (load/runner/node-engine/metrics.ts does the same over raw
// samples): a selector names a metric or a tag-filtered sub-metric, an
// expression is `agg op number`; trends know p(N), avg, med, min, max and
// count, counters count and rate, rates rate, gauges value, min and max. A
// metric with no points aggregates to zero, as in k6.
import { parseExpression, parseSelector, compare, type ThresholdExpression } from '../runner/node-engine/thresholds.ts';
import { THRESHOLD_AGGREGATIONS } from '../runner/node-engine/metrics.ts';
import type { RunHistograms, SeriesStats } from '../histograms/run-histograms.ts';
import { FleetproofError } from '../../client/errors.ts';

export class SelectorError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_THRESHOLD', message, options);
  }
}

/** The series a selector names, added together; null when the run has no such metric. */
export function selectSeries(h: RunHistograms, key: string): SeriesStats | null {
  const selector = parseSelector(key);
  const missing = Object.keys(selector.filter).filter((k) => !h.dimensions.includes(k));
  if (missing.length > 0)
    throw new SelectorError(
      `${key} filters on ${missing.join(', ')}, which the runs did not record (recorded: ${h.dimensions.join(', ')})`,
    );
  const metric = h.metrics.get(selector.metric);
  return metric ? metric.aggregate(selector.filter) : null;
}

/** One aggregation of a metric or sub-metric; undefined when the type does not have it. */
export function aggregationOf(s: SeriesStats, aggregation: string, testDurationMs: number): number | undefined {
  const p = /^p\(([0-9]+(?:\.[0-9]+)?)\)$/.exec(aggregation);
  const min = s.count === 0 ? 0 : s.min;
  const max = s.count === 0 ? 0 : s.max;
  switch (s.type) {
    case 'trend':
      if (p) return s.histogram!.percentile(Number(p[1]), min, max);
      if (aggregation === 'med') return s.histogram!.percentile(50, min, max);
      if (aggregation === 'avg') return s.count === 0 ? 0 : s.sum.value() / s.count;
      if (aggregation === 'min') return min;
      if (aggregation === 'max') return max;
      if (aggregation === 'count') return s.count;
      return undefined;
    case 'counter':
      if (aggregation === 'count') return s.sum.value();
      if (aggregation === 'rate') return testDurationMs > 0 ? s.sum.value() / (testDurationMs / 1000) : 0;
      return undefined;
    case 'rate':
      if (aggregation === 'rate') return s.count === 0 ? 0 : s.nonZero / s.count;
      if (aggregation === 'passes') return s.nonZero;
      if (aggregation === 'fails') return s.count - s.nonZero;
      return undefined;
    case 'gauge':
      if (aggregation === 'value') return s.count === 0 ? 0 : s.last;
      if (aggregation === 'min') return min;
      if (aggregation === 'max') return max;
      return undefined;
  }
}

export interface ThresholdOutcome {
  key: string;
  expression: ThresholdExpression;
  ok: boolean;
  /** null when the metric's type has no such aggregation (the threshold fails). */
  value: number | null;
  margin: number | null;
}

/** How far the value is inside (positive) or outside (negative) the limit, as the script's summary reports it. */
export function marginOf(value: number, operator: string, limit: number): number {
  if (operator === '<' || operator === '<=') return limit - value;
  if (operator === '>' || operator === '>=') return value - limit;
  // Exactly on the limit is a margin of 0, not -0.
  return value === limit ? 0 : -Math.abs(value - limit);
}

/** Evaluates `key: expression` once on the histograms. */
export function evaluateThreshold(h: RunHistograms, key: string, source: string, testDurationMs: number): ThresholdOutcome {
  const expression = parseExpression(source);
  const s = selectSeries(h, key);
  let value: number | undefined;
  if (!s) value = 0;
  else if (!THRESHOLD_AGGREGATIONS[s.type].test(expression.aggregation)) value = undefined;
  else value = aggregationOf(s, expression.aggregation, testDurationMs);
  const ok = value !== undefined && compare(value, expression);
  return {
    key,
    expression,
    ok,
    value: value ?? null,
    margin: value === undefined ? null : marginOf(value, expression.operator, expression.limit),
  };
}

/** A trend's summary values as k6 names them (summaryTrendStats of the scale scripts). */
export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'] as const;

export function trendStats(s: SeriesStats, stats: readonly string[] = TREND_STATS): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of stats) {
    const v = aggregationOf(s, k, 0);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
