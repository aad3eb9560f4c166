// The load report's charts, drawn with the shared primitives (viewBox, so
// they scale on a phone): thresholds against their limits, latency per phase
// on a labelled log scale, and the run over time.
import type { PhaseRow, ThresholdRow } from '../../load/runner/load-report.ts';
import type { TimeSeries } from '../../load/runner/time-series.ts';
import { CHART_WIDTH, fmt, lineChart, rect, svgFrame, text } from '../charts/svg.ts';

/**
 * One row per threshold: the label on its own line (never cut), then the
 * measured value as a bar on a linear scale from zero, the limit as a dashed
 * line. A value of zero is no bar and a dot at zero, whatever the limit, so
 * `count==0` met reads as zero, not as a half-full bar.
 */
export function thresholdChart(rows: ThresholdRow[]): string {
  const width = CHART_WIDTH;
  const rowH = 40;
  const scale = width - 290;
  const height = rows.length * rowH + 8;
  const parts = rows.map((t, i) => {
    const y = 4 + i * rowH;
    const value = t.value ?? 0;
    const limit = t.limit ?? 0;
    const axisMax = Math.max(Math.abs(value), Math.abs(limit)) * 1.25 || 1;
    const at = (v: number) => (Math.min(Math.abs(v), axisMax) / axisMax) * scale;
    const color = t.ok ? '#1a7f37' : '#cf222e';
    const margin = t.margin === null ? '' : `, margin ${t.margin >= 0 ? '+' : ''}${fmt(t.margin)}`;
    const valueText = t.value === null ? 'no value' : `${fmt(value)} ${t.unit} (limit ${t.limit === null ? 'n/a' : fmt(limit)}${margin})`;
    const bar = value === 0 ? `<circle cx="3" cy="${y + 25}" r="3.5" fill="${color}"/>` : rect(0, y + 18, at(value), 14, color);
    return [
      text(0, y + 12, `${t.ok ? '✓' : '✗'} ${t.label}`),
      rect(0, y + 18, scale, 14, '#eaeef2'),
      bar,
      t.limit === null
        ? ''
        : `<line x1="${at(limit).toFixed(1)}" x2="${at(limit).toFixed(1)}" y1="${y + 15}" y2="${y + 35}" stroke="#1b1f24" stroke-dasharray="3,2"/>`,
      text(scale + 8, y + 30, valueText, 'font-size="11"'),
    ].join('');
  });
  return svgFrame(
    width,
    height,
    'thresholds: measured value (bar) against its limit (dashed line), linear scale from zero',
    parts.join(''),
  );
}

const LOG_TICKS = [0.1, 1, 10, 100, 1000, 10000, 100000];

/** Grouped bars of median, p95 and p99 latency per phase, on a log scale that says so and shows its decades. */
export function latencyChart(phases: PhaseRow[]): string {
  const rows = phases.filter((p) => p.latency_ms && p.latency_ms['count']);
  if (rows.length === 0) return '<p class="muted">No request latencies were recorded.</p>';
  const width = CHART_WIDTH;
  const rowH = 46;
  const left = 150;
  const top = 30;
  const scale = width - left - 110;
  const max = Math.max(1, ...rows.map((p) => p.latency_ms!['p(99)'] ?? p.latency_ms!['max'] ?? 1));
  const ticks = LOG_TICKS.filter((t) => t <= max * 10).slice(0, LOG_TICKS.findIndex((t) => t >= max) + 1);
  const lo = ticks[0]!;
  const hi = ticks[ticks.length - 1]!;
  const x = (ms: number) => ((Math.log10(Math.max(ms, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo) || 1)) * scale;
  const height = top + rows.length * rowH + 6;
  const axis = ticks.map(
    (t) =>
      `<line x1="${left + x(t)}" x2="${left + x(t)}" y1="${top - 4}" y2="${height - 4}" stroke="#eaeef2"/>${text(left + x(t), top - 8, `${fmt(t)} ms`, 'text-anchor="middle" font-size="10"')}`,
  );
  const stats: Array<[string, string, string]> = [
    ['med', 'p50', '#90caf9'],
    ['p(95)', 'p95', '#42a5f5'],
    ['p(99)', 'p99', '#1565c0'],
  ];
  const parts = rows.map((p, i) => {
    const y = top + i * rowH;
    const bars = stats.map(([k, name, color], j) => {
      const v = p.latency_ms![k] ?? 0;
      return `${rect(left, y + j * 13, x(v), 11, color)}${text(left + x(v) + 4, y + j * 13 + 9, `${name} ${fmt(v)}`, 'font-size="10"')}`;
    });
    return `${text(0, y + 22, p.name)}${bars.join('')}`;
  });
  const title = text(0, 12, 'latency, ms — log scale (each gridline ×10)', 'font-size="11" font-weight="600"');
  return svgFrame(width, height, 'latency per phase: p50, p95 and p99, log scale', title + axis.join('') + parts.join(''));
}

/** Routes created per second over the run, as bars on a linear scale from zero. */
export function throughputChart(series: { start_ms: number; bucket_ms: number; counts: number[] }): string {
  if (series.counts.length === 0) return '<p class="muted">No routes were created.</p>';
  const width = CHART_WIDTH;
  const height = 180;
  const plot = { left: 50, top: 16, bottom: 150 };
  const perSecond = series.counts.map((c) => (c * 1000) / series.bucket_ms);
  const max = Math.max(...perSecond, 1);
  const barW = (width - plot.left - 10) / perSecond.length;
  const bars = perSecond.map((v, i) => {
    const h = (v / max) * (plot.bottom - plot.top);
    return rect(
      plot.left + i * barW,
      plot.bottom - h,
      Math.max(1, barW - 1),
      h,
      '#6a1b9a',
      `${fmt(v)} routes/s at +${((i * series.bucket_ms) / 1000).toFixed(1)} s`,
    );
  });
  const span = ((series.counts.length * series.bucket_ms) / 1000).toFixed(1);
  const axis = `${text(plot.left - 6, plot.top + 4, `${fmt(max)}/s`, 'text-anchor="end" font-size="10"')}${text(plot.left - 6, plot.bottom, '0', 'text-anchor="end" font-size="10"')}${text(plot.left, height - 10, '0 s', 'font-size="10"')}${text(width - 10, height - 10, `${span} s`, 'text-anchor="end" font-size="10"')}`;
  return svgFrame(width, height, 'routes created per second over the run, linear scale from zero', bars.join('') + axis);
}

/** Latency, throughput and failures over the run, one chart each, from the raw metric output. */
export function overTimeCharts(series: TimeSeries | null): string {
  if (!series || series.buckets.length === 0)
    return '<p class="muted">The engine wrote no raw metric output, so there is nothing to draw over time.</p>';
  const b = series.buckets;
  const perSecond = 1000 / series.bucket_ms;
  // A bucket without requests has no latency: a gap in the line, not a straight line across it.
  const pick = (f: (x: (typeof b)[number]) => number | null): Array<[number, number | null]> => b.map((x) => [x.t_s, f(x)]);
  const seconds = `${series.bucket_ms / 1000} s buckets`;
  return [
    lineChart({
      label: `request latency over time (${seconds}, linear scale)`,
      yTitle: 'ms',
      xTitle: 'seconds into the run',
      series: [
        { name: 'p50', color: '#90caf9', points: pick((x) => x.p50_ms) },
        { name: 'p95', color: '#42a5f5', points: pick((x) => x.p95_ms) },
        { name: 'p99', color: '#1565c0', points: pick((x) => x.p99_ms) },
      ],
    }),
    lineChart({
      label: `throughput over time (${seconds})`,
      yTitle: 'requests/s',
      xTitle: 'seconds into the run',
      series: [{ name: 'requests/s', color: '#6a1b9a', points: pick((x) => x.requests * perSecond) }],
    }),
    lineChart({
      label: `failed requests over time (${seconds})`,
      yTitle: 'failed/s',
      xTitle: 'seconds into the run',
      series: [{ name: 'failed/s', color: '#cf222e', points: pick((x) => x.failed * perSecond) }],
    }),
  ].join('\n');
}
