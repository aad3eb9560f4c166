// k6 threshold syntax and evaluation for the Node runner: keys name a metric
// or a tag-filtered sub-metric (`http_req_duration{phase:routes,operation:resolve}`,
// `group_duration{group:::checkout}`), values are expressions `agg op number`
// in a string, an array, or the long form { threshold, abortOnFail, delayAbortEval }.
import { aggregationValue, THRESHOLD_AGGREGATIONS, type MetricStore, type MetricType } from './metrics.ts';
import { FleetproofError } from '../../../client/errors.ts';

export interface MetricSelector {
  /** The key as written, which is also the sub-metric's name in the summary. */
  key: string;
  metric: string;
  filter: Record<string, string>;
}

export interface ThresholdExpression {
  source: string;
  aggregation: string;
  operator: '<' | '<=' | '>' | '>=' | '==' | '===' | '!=';
  limit: number;
  abortOnFail: boolean;
  delayAbortEvalMs: number;
}

export interface ThresholdSet {
  selector: MetricSelector;
  expressions: ThresholdExpression[];
}

export interface ThresholdVerdict {
  key: string;
  source: string;
  ok: boolean;
  value: number | undefined;
}

export class ThresholdError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_THRESHOLD', message, options);
  }
}

export function parseSelector(key: string): MetricSelector {
  const trimmed = key.trim();
  const open = trimmed.indexOf('{');
  if (open === -1) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(trimmed)) throw new ThresholdError(`invalid metric name ${key}`);
    return { key: trimmed, metric: trimmed, filter: {} };
  }
  if (!trimmed.endsWith('}')) throw new ThresholdError(`missing } in ${key}`);
  const metric = trimmed.slice(0, open).trim();
  const filter: Record<string, string> = {};
  for (const pair of trimmed.slice(open + 1, -1).split(',')) {
    // The value may itself hold colons (group paths), so split on the first only.
    const colon = pair.indexOf(':');
    if (colon <= 0) throw new ThresholdError(`tag filter ${pair.trim()} in ${key} needs name:value`);
    const name = pair.slice(0, colon).trim();
    const value = pair
      .slice(colon + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (!name) throw new ThresholdError(`empty tag name in ${key}`);
    filter[name] = value;
  }
  return { key: trimmed, metric, filter };
}

const EXPRESSION =
  /^\s*(avg|min|max|med|count|rate|value|p\([0-9]+(?:\.[0-9]+)?\))\s*(<=|>=|===|==|!=|<|>)\s*(-?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)\s*$/i;

export function parseExpression(source: string, abortOnFail = false, delayAbortEvalMs = 0): ThresholdExpression {
  const m = EXPRESSION.exec(source);
  if (!m) throw new ThresholdError(`invalid threshold expression ${JSON.stringify(source)}`);
  return {
    source,
    aggregation: m[1]!,
    operator: m[2] as ThresholdExpression['operator'],
    limit: Number(m[3]),
    abortOnFail,
    delayAbortEvalMs,
  };
}

function durationMs(text: string | undefined): number {
  if (!text) return 0;
  const m = /^([0-9.]+)(ms|s|m|h)$/.exec(text);
  if (!m) throw new ThresholdError(`invalid delayAbortEval ${text}`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}

type ThresholdValue = string | { threshold: string; abortOnFail?: boolean; delayAbortEval?: string };

export function parseThresholds(options: Record<string, ThresholdValue | ThresholdValue[]> | undefined): ThresholdSet[] {
  const sets: ThresholdSet[] = [];
  for (const [key, raw] of Object.entries(options ?? {})) {
    const selector = parseSelector(key);
    const expressions = (Array.isArray(raw) ? raw : [raw]).map((v) =>
      typeof v === 'string' ? parseExpression(v) : parseExpression(v.threshold, v.abortOnFail ?? false, durationMs(v.delayAbortEval)),
    );
    sets.push({ selector, expressions });
  }
  return sets;
}

export function compare(value: number, e: ThresholdExpression): boolean {
  switch (e.operator) {
    case '<':
      return value < e.limit;
    case '<=':
      return value <= e.limit;
    case '>':
      return value > e.limit;
    case '>=':
      return value >= e.limit;
    case '==':
    case '===':
      return value === e.limit;
    case '!=':
      return value !== e.limit;
  }
}

/** Refuses aggregations the metric's type does not have, as k6 does at start. */
export function checkAggregations(sets: ThresholdSet[], typeOf: (metric: string) => MetricType | undefined): void {
  for (const set of sets) {
    const type = typeOf(set.selector.metric);
    if (!type) throw new ThresholdError(`threshold on unknown metric ${set.selector.metric}`);
    for (const e of set.expressions) {
      if (!THRESHOLD_AGGREGATIONS[type].test(e.aggregation)) {
        throw new ThresholdError(`${e.aggregation} is not an aggregation of ${type} metric ${set.selector.metric}`);
      }
    }
  }
}

/**
 * Every expression's verdict, by k6's rules (v1.3.0, checked against its
 * summaries). At the end of a run a metric with no samples reads zero (a
 * count, a gauge's value, every trend aggregation), except a rate, which has
 * no value then and so fails nothing: a phase that made no checks has not
 * failed one. During the run (`whileRunning`, for abortOnFail) a metric with
 * no samples is not judged at all.
 */
export function evaluateThresholds(
  sets: ThresholdSet[],
  store: MetricStore,
  testDurationMs: number,
  whileRunning = false,
): ThresholdVerdict[] {
  const verdicts: ThresholdVerdict[] = [];
  for (const set of sets) {
    const agg = store.aggregate(set.selector.metric, set.selector.filter);
    const empty = agg === undefined || agg.count === 0;
    if (empty && whileRunning) continue;
    for (const e of set.expressions) {
      if (empty && agg?.type === 'rate') {
        verdicts.push({ key: set.selector.key, source: e.source, ok: true, value: undefined });
        continue;
      }
      const value = agg ? aggregationValue(agg, e.aggregation, testDurationMs) : 0;
      verdicts.push({ key: set.selector.key, source: e.source, ok: value !== undefined && compare(value, e), value });
    }
  }
  return verdicts;
}
