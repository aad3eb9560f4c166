// The load report's charts: thresholds against their limits, latency per
// phase on a labelled log scale, latency percentiles over time as bands with
// the profile's latency limits drawn across them, requests and errors per
// second on the same time axis, and routes over the run (each as first returned).
import type { ThresholdRow } from '../../load/runner/load-report.ts';
import type { PhaseRow } from '../../load/runner/phase-rows.ts';
import type { TimeSeries } from '../../load/runner/time-series.ts';
import { barChart, dotMark, limitMark, span } from '../charts/bar-rows.ts';
import { decadeTicks, escapeXml as esc, tickLabel } from '../charts/svg.ts';
import { linearAxis, xyChart, type Panel } from '../charts/xy-chart.ts';
import { measured, withUnit } from '../figures.ts';

/**
 * One row per threshold: the measured value as a bar on a linear scale from
 * zero, the limit as a dashed line. A value of zero is a dot at zero, so
 * `count==0` met reads as zero, not as a half-full bar.
 */
export function thresholdChart(rows: ThresholdRow[]): string {
  return barChart({
    label: 'thresholds: measured value (bar) against its limit (dashed line), linear scale from zero',
    caption: 'Each threshold: the measured value (bar) against its limit (dashed line)',
    rows: rows.map((t) => {
      const value = t.value ?? 0;
      const limit = t.limit ?? 0;
      const axisMax = Math.max(Math.abs(value), Math.abs(limit)) * 1.25 || 1;
      const at = (v: number) => (Math.min(Math.abs(v), axisMax) / axisMax) * 100;
      // A threshold left unjudged (parts that did not run side by side) is grey: neither held nor crossed.
      const judged = t.not_judged === undefined;
      const color = !judged ? '#6e7781' : t.ok ? '#1a7f37' : '#cf222e';
      const shown = withUnit(t.value, t.unit);
      const bar = value === 0 ? dotMark(0, color, shown) : span(0, at(value), color, shown);
      const margin = t.margin === null ? '' : `, margin ${t.margin >= 0 ? '+' : '−'}${withUnit(Math.abs(t.margin), t.unit)}`;
      return {
        label: `${judged ? `<span class="${t.ok ? 'ok' : 'bad'}">${t.ok ? '✓' : '✗'}</span>` : '<span class="muted">?</span>'} ${esc(t.label)}`,
        marks: bar + (t.limit === null ? '' : limitMark(at(limit), `limit ${withUnit(limit, t.unit)}`)),
        value:
          t.value === null
            ? 'no value'
            : `<b>${esc(shown)}</b> <span class="muted">(limit ${t.limit === null ? 'n/a' : esc(withUnit(limit, t.unit))}${esc(margin)})</span>`,
      };
    }),
  });
}

const PERCENTILES = [
  { key: 'med', name: 'p50', color: '#90caf9' },
  { key: 'p(95)', name: 'p95', color: '#42a5f5' },
  { key: 'p(99)', name: 'p99', color: '#0d47a1' },
] as const;

/** Per phase, its p50 to p99 latency as a range on a log scale (a tick at p95), the three figures beside it. */
export function latencyChart(phases: PhaseRow[]): string {
  const rows = phases.filter((p) => p.latency_ms && p.latency_ms['count']);
  if (rows.length === 0) return '<p class="muted">No request latencies were recorded.</p>';
  const values = rows.flatMap((p) => PERCENTILES.map((s) => p.latency_ms![s.key] ?? 0)).filter((v) => v > 0);
  const ticks = decadeTicks(Math.min(...values), Math.max(...values));
  const lo = Math.log10(ticks[0]!);
  const hi = Math.log10(ticks[ticks.length - 1]!);
  const at = (ms: number) => ((Math.log10(Math.max(ms, ticks[0]!)) - lo) / (hi - lo)) * 100;
  return barChart({
    label: 'latency per phase: p50 to p99 on a log scale',
    caption: 'Latency per phase, ms (log scale: each gridline ×10): the bar runs from p50 to p99, darker above p95',
    ticks: ticks.map((t) => ({ at: at(t), label: `${tickLabel(t)} ms` })),
    legend: [
      { name: 'p50 to p95', color: PERCENTILES[1].color, style: 'area' },
      { name: 'p95 to p99', color: PERCENTILES[2].color, style: 'area' },
    ],
    rows: rows.map((p) => {
      const [p50, p95, p99] = PERCENTILES.map((s) => p.latency_ms![s.key] ?? 0) as [number, number, number];
      return {
        label: esc(p.name),
        marks:
          span(at(p50), at(p95), PERCENTILES[1].color, `p50 ${measured(p50)} ms to p95 ${measured(p95)} ms`) +
          span(at(p95), at(p99), PERCENTILES[2].color, `p95 ${measured(p95)} ms to p99 ${measured(p99)} ms`),
        value: `p50 ${esc(measured(p50))} · p95 ${esc(measured(p95))} · p99 <b>${esc(measured(p99))}</b> ms`,
      };
    }),
  });
}

/**
 * The latency limits of the profile: a percentile (or the median) of request
 * durations below a value in ms; with `operation`, only the limits on that
 * operation's requests.
 */
export function latencyLimits(thresholds: readonly ThresholdRow[], operation?: string): Array<{ y: number; label: string; color: string }> {
  const out: Array<{ y: number; label: string; color: string }> = [];
  for (const t of thresholds) {
    const m = /^(p\((\d+(?:\.\d+)?)\)|med|avg)\s*<=?\s*(\d+(?:\.\d+)?)$/.exec(t.expression.trim());
    if (!m || !t.metric.startsWith('http_req_duration')) continue;
    if (operation !== undefined && !t.metric.includes(`operation:${operation}`)) continue;
    const which = m[2] ? `p${m[2]}` : m[1]!;
    out.push({ y: Number(m[3]), label: `${t.label}: ${which} < ${m[3]} ms`, color: t.ok ? '#57606a' : '#cf222e' });
  }
  return out;
}

/**
 * Latency percentiles of every request per time bucket (a band from p50 to
 * p99 with the three as step lines, the profile's latency limits across it),
 * then requests and failed requests per second on the same time axis.
 */
export function overTimeCharts(series: TimeSeries | null, thresholds: readonly ThresholdRow[]): string {
  if (!series || series.buckets.length === 0)
    return '<p class="muted">The engine wrote no raw metric output, so there is nothing to draw over time.</p>';
  const b = series.buckets;
  const step = series.bucket_ms / 1000;
  const perSecond = 1000 / series.bucket_ms;
  const end = b[b.length - 1]!.t_s + step;
  const x = { ...linearAxis(end, ''), title: `seconds into the run (${step} s buckets)` };
  const highest = Math.max(...b.map((k) => k.p99_ms ?? 0));
  const limits = latencyLimits(thresholds);
  // A limit far above what was measured would flatten the curves to the axis: it is named, not drawn.
  const drawn = limits.filter((l) => l.y <= highest * 3);
  const above = limits.filter((l) => l.y > highest * 3);
  const latency: Panel = {
    title: 'latency of every request, ms',
    height: 170,
    y: linearAxis(Math.max(highest, ...drawn.map((l) => l.y * 1.05)), ''),
    series: [
      { kind: 'band', name: 'p50 to p99', color: '#42a5f5', step, points: b.map((k) => [k.t_s, k.p50_ms, k.p99_ms] as const) },
      ...PERCENTILES.map((s) => ({
        kind: 'step' as const,
        name: s.name,
        color: s.color,
        step,
        points: b.map((k) => [k.t_s, s.key === 'med' ? k.p50_ms : s.key === 'p(95)' ? k.p95_ms : k.p99_ms] as const),
      })),
    ],
    refs: drawn,
  };
  const requests = b.map((k) => [k.t_s, k.requests * perSecond] as const);
  const failed = b.map((k) => [k.t_s, k.failed * perSecond] as const);
  const failedTotal = b.reduce((n, k) => n + k.failed, 0);
  const latencyChartHtml = xyChart({
    label: 'request latency over time: p50, p95 and p99 per bucket, latency limits dashed',
    caption: 'Latency over time: p50, p95 and p99 of every request in each bucket',
    x,
    panels: [latency],
    legend: [
      ...PERCENTILES.map((s) => ({ name: s.name, color: s.color, style: 'line' as const })),
      ...(drawn.length ? [{ name: 'latency limit of the profile', color: '#57606a', style: 'dash' as const }] : []),
    ],
    ...(above.length
      ? { note: `Above the chart: ${above.map((l) => esc(l.label)).join('; ')} (measured p99 peaked at ${esc(measured(highest))} ms).` }
      : {}),
  });
  const trafficChart = xyChart({
    label: 'requests and failed requests per second over time',
    caption: `Requests and failed requests per second (${failedTotal} failed in all)`,
    x,
    panels: [
      {
        title: 'requests per second',
        height: 110,
        y: linearAxis(Math.max(...requests.map(([, v]) => v)), ''),
        series: [{ kind: 'area', name: 'requests/s', color: '#8250df', step, points: requests }],
      },
      {
        title: 'failed requests per second',
        height: 60,
        y: linearAxis(Math.max(...failed.map(([, v]) => v)), ''),
        series: [{ kind: 'area', name: 'failed/s', color: '#cf222e', step, points: failed }],
      },
    ],
    legend: [
      { name: 'requests/s', color: '#8250df', style: 'area' },
      { name: 'failed requests/s', color: '#cf222e', style: 'area' },
    ],
  });
  return latencyChartHtml + trafficChart;
}

/** Routes per second over the run, each counted when the registry first returned it (the journal's). */
export function routesChart(series: { start_ms: number; bucket_ms: number; counts: number[] }): string {
  if (series.counts.length === 0) return '<p class="muted">The registry returned no route.</p>';
  const step = series.bucket_ms / 1000;
  const points = series.counts.map((c, i) => [i * step, c / step] as const);
  return xyChart({
    label: 'routes first returned per second over the run',
    caption: `Routes first returned per second (${step} s buckets)`,
    x: { ...linearAxis(series.counts.length * step, ''), title: 'seconds after the first route' },
    panels: [
      {
        title: 'routes per second',
        height: 100,
        y: linearAxis(Math.max(...points.map(([, v]) => v)), ''),
        series: [{ kind: 'area', name: 'routes/s', color: '#8250df', step, points }],
      },
    ],
    legend: [{ name: 'routes/s', color: '#8250df', style: 'area' }],
  });
}
