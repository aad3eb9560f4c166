// The end-of-test summary on the terminal, in k6's shape: thresholds first,
// each marked ✓ or ✗ with its value and limit, then one line per metric with
// its count, rate and, for trends, p50/p90/p95/p99 (rates: the share of
// non-zero points), then the verdict in the reports' words.
import { loadVerdictWords, type LoadReport } from '../../load/runner/load-report.ts';
import type { MetricRow } from '../../load/runner/metric-summary.ts';

const num = (n: number | null, unit = '') => {
  if (n === null) return 'n/a';
  const text = Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
  return unit ? `${text}${unit}` : text;
};

const kilobytes = (bytes: number) => `${num(bytes / 1000)} kB`;

function metricLine(m: MetricRow, width: number): string {
  const name = `${m.metric}${'.'.repeat(Math.max(2, width - m.metric.length))}:`;
  const rate = m.per_second === null ? '' : ` ${num(m.per_second)}/s`;
  if (m.contains === 'data')
    return `  ${name} ${kilobytes(m.sum)} ${m.per_second === null ? '' : `${kilobytes(m.per_second)}/s`}`.trimEnd();
  if (m.type === 'trend') {
    const unit = m.contains === 'time' ? 'ms' : '';
    return `  ${name} count=${m.count} avg=${num(m.avg, unit)} p(50)=${num(m.p50, unit)} p(90)=${num(m.p90, unit)} p(95)=${num(m.p95, unit)} p(99)=${num(m.p99, unit)} max=${num(m.max, unit)}`;
  }
  if (m.type === 'rate') return `  ${name} ${num((m.ratio ?? 0) * 100)}% ${Math.round((m.ratio ?? 0) * m.count)} out of ${m.count}`;
  if (m.type === 'counter') return `  ${name} ${m.sum}${rate}`;
  return `  ${name} last max=${num(m.max)} min=${num(m.min)}`;
}

/** `part`: one part of a distributed run, whose verdict only the merge gives (a part that ran exits 0). */
export function renderTerminalSummary(r: LoadReport, o: { part?: boolean } = {}): string {
  const lines: string[] = [
    '',
    `  fleetproof load ${r.profile}, run ${r.run_id}, engine ${r.environment.engine.name} ${r.environment.engine.version}`,
    '',
    '  THRESHOLDS',
    '',
  ];
  for (const t of r.thresholds)
    lines.push(
      `    ${t.ok ? '✓' : '✗'} ${t.label}: ${t.metric} ${t.expression} → ${num(t.value)}${t.unit ? ` ${t.unit}` : ''}${t.limit === null ? '' : ` (limit ${t.limit})`}`,
    );
  if (r.metrics.length > 0) {
    const width = Math.max(...r.metrics.map((m) => m.metric.length)) + 3;
    lines.push('', '  METRICS', '', ...r.metrics.map((m) => metricLine(m, width)));
  }
  const checks = r.phases.reduce((n, p) => ({ passes: n.passes + p.checks.passes, fails: n.fails + p.checks.fails }), {
    passes: 0,
    fails: 0,
  });
  lines.push('', `  checks: ${checks.passes} ✓ ${checks.fails} ✗; audit: ${r.audit ? (r.audit.ok ? 'clean' : 'violations') : 'not run'}`);
  const verdict =
    o.part && r.verdict !== 'could-not-run'
      ? 'PART WRITTEN: no verdict until the parts are merged (fleetproof report --merge)'
      : loadVerdictWords(r);
  lines.push('', `  ${verdict}`, ...r.reasons.map((x) => `    ${x}`), '');
  return lines.join('\n');
}
