// The end-of-test data the Node runner hands to handleSummary, in k6's
// shape: metrics (and the tag-filtered sub-metrics that thresholds declare)
// with their summary values and threshold verdicts, the group and check
// tree, the test state and the setup data.
import { aggregationValue, type Aggregate, type MetricStore } from './metrics.ts';
import type { ThresholdSet, ThresholdVerdict } from './thresholds.ts';

const DATA_METRICS = new Set(['data_sent', 'data_received']);
const containsOf = (name: string, a: Aggregate) => (a.time ? 'time' : DATA_METRICS.has(name) ? 'data' : 'default');

function summaryValues(a: Aggregate, trendStats: string[], durationMs: number): Record<string, number> {
  const values: Record<string, number> = {};
  const put = (k: string) => {
    const v = aggregationValue(a, k, durationMs);
    if (v !== undefined) values[k] = v;
  };
  if (a.type === 'trend') for (const s of trendStats) put(s);
  else if (a.type === 'counter') ['count', 'rate'].forEach(put);
  else if (a.type === 'rate') ['rate', 'passes', 'fails'].forEach(put);
  else ['value', 'min', 'max'].forEach(put);
  return values;
}

interface CheckNode {
  name: string;
  path: string;
  id: string;
  passes: number;
  fails: number;
}

interface GroupNode {
  name: string;
  path: string;
  id: string;
  groups: GroupNode[];
  checks: CheckNode[];
}

/** The group tree with the checks made in each group, from the checks metric. */
function groupTree(store: MetricStore): GroupNode {
  const root: GroupNode = { name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e', groups: [], checks: [] };
  const groupAt = (path: string): GroupNode => {
    if (path === '') return root;
    const parts = path.split('::').slice(1);
    let node = root;
    let at = '';
    for (const name of parts) {
      at += `::${name}`;
      let child = node.groups.find((g) => g.name === name);
      if (!child) node.groups.push((child = { name, path: at, id: at, groups: [], checks: [] }));
      node = child;
    }
    return node;
  };
  for (const { tags, passes, fails } of store.checkCounts()) {
    const group = groupAt(tags['group'] ?? '');
    const name = tags['check'] ?? '';
    let check = group.checks.find((c) => c.name === name);
    if (!check) group.checks.push((check = { name, path: `${group.path}::${name}`, id: `${group.path}::${name}`, passes: 0, fails: 0 }));
    check.passes += passes;
    check.fails += fails;
  }
  return root;
}

export function buildSummaryData(args: {
  store: MetricStore;
  thresholds: ThresholdSet[];
  verdicts: ThresholdVerdict[];
  trendStats: string[];
  durationMs: number;
  setupData: unknown;
  options: Record<string, unknown>;
}): Record<string, unknown> {
  const { store, thresholds, verdicts, trendStats, durationMs } = args;
  const metrics: Record<string, unknown> = {};
  const withThresholds = new Map(thresholds.map((t) => [t.selector.key, t]));
  for (const name of store.names()) {
    const a = store.aggregate(name)!;
    if (a.count === 0 && !withThresholds.has(name)) continue;
    metrics[name] = { type: a.type, contains: containsOf(name, a), values: summaryValues(a, trendStats, durationMs) };
  }
  for (const set of thresholds) {
    const a = store.aggregate(set.selector.metric, set.selector.filter);
    const entry = (metrics[set.selector.key] ??= a
      ? { type: a.type, contains: containsOf(set.selector.metric, a), values: summaryValues(a, trendStats, durationMs) }
      : { type: 'counter', contains: 'default', values: {} }) as Record<string, unknown>;
    entry['thresholds'] = Object.fromEntries(verdicts.filter((v) => v.key === set.selector.key).map((v) => [v.source, { ok: v.ok }]));
  }
  return {
    root_group: groupTree(store),
    options: { summaryTrendStats: trendStats, summaryTimeUnit: '', noColor: false },
    state: { isStdOutTTY: Boolean(process.stdout.isTTY), isStdErrTTY: Boolean(process.stderr.isTTY), testRunDurationMs: durationMs },
    metrics,
    setup_data: args.setupData,
  };
}
