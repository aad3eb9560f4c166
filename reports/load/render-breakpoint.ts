// The breakpoint profile's part of the load report: the highest rate at
// which every SLO held, where and why it broke, and latency and errors
// against rate, as a table (Markdown and HTML) and a chart with the break
// marked.
import type { BreakpointResult } from '../../load/runner/breakpoint.ts';
import type { ThresholdRow } from '../../load/runner/load-report.ts';
import { latencyLimits } from './charts.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import { linearAxis, xyChart } from '../charts/xy-chart.ts';
import { measured } from '../figures.ts';
import { figureCell, table } from '../look.ts';

const ms = (v: number | null) => (v === null ? 'n/a' : measured(v));
const pct = (v: number) => `${measured(v * 100)} %`;
const answer = (b: BreakpointResult) =>
  b.highest_held_rate === null ? 'No rate held.' : `Every SLO held up to **${b.highest_held_rate} routes/s**.`;

export function breakpointMarkdown(b: BreakpointResult): string[] {
  const lines = [
    '## Breakpoint',
    '',
    `${answer(b)} ${b.limit}`,
    '',
    '| rate/s | requests | resolve p50 ms | resolve p99 ms | errors | dropped | held |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const s of b.steps)
    lines.push(
      `| ${s.rate} | ${s.requests} | ${ms(s.p50_ms)} | ${ms(s.p99_ms)} | ${pct(s.error_rate)} | ${s.dropped_iterations} | ${s.held ? '✓' : `✗ ${s.broken.join('; ')}`} |`,
    );
  return [...lines, ''];
}

/** Resolve latency (p50, p99) and the error share against the arrival rate, the break and the highest held rate marked, the profile's latency limits dashed. */
function breakpointChart(b: BreakpointResult, thresholds: readonly ThresholdRow[]): string {
  if (b.steps.length === 0) return '';
  const maxRate = Math.max(b.max_rate, ...b.steps.map((s) => s.rate));
  const broke = b.steps.find((s) => !s.held);
  const marks = [
    ...(b.highest_held_rate !== null
      ? [{ x: b.highest_held_rate, label: `held up to ${b.highest_held_rate}/s`, color: '#1a7f37', side: 'left' as const }]
      : []),
    ...(broke ? [{ x: broke.rate, label: `broke at ${broke.rate}/s`, color: '#cf222e', side: 'right' as const }] : []),
  ];
  const limits = latencyLimits(thresholds, 'resolve').filter((l) => l.y <= Math.max(...b.steps.map((s) => s.p99_ms ?? 0)) * 3);
  const highest = Math.max(...b.steps.map((s) => s.p99_ms ?? 0), ...limits.map((l) => l.y * 1.05));
  return xyChart({
    label: 'resolve latency and error share against the arrival rate, the break marked',
    caption: 'Resolve latency and errors against the arrival rate',
    x: { ...linearAxis(maxRate, ''), title: 'arrival rate, routes per second' },
    panels: [
      {
        title: 'resolve latency, ms',
        height: 170,
        y: linearAxis(highest, ''),
        series: [
          { kind: 'line', name: 'p50', color: '#90caf9', points: b.steps.map((s) => [s.rate, s.p50_ms] as const) },
          { kind: 'line', name: 'p99', color: '#0d47a1', points: b.steps.map((s) => [s.rate, s.p99_ms] as const) },
        ],
        refs: limits,
      },
      {
        title: 'requests that failed, %',
        height: 80,
        y: linearAxis(Math.max(...b.steps.map((s) => s.error_rate * 100)), '', 1),
        series: [{ kind: 'line', name: 'errors', color: '#cf222e', points: b.steps.map((s) => [s.rate, s.error_rate * 100] as const) }],
      },
    ],
    xMarks: marks,
    legend: [
      { name: 'p50', color: '#90caf9', style: 'line' },
      { name: 'p99', color: '#0d47a1', style: 'line' },
      { name: 'failed %', color: '#cf222e', style: 'line' },
    ],
  });
}

export function breakpointHtml(b: BreakpointResult, thresholds: readonly ThresholdRow[], h = 'h2'): string {
  const rows = b.steps.map((s) => [
    figureCell(`${s.rate}/s`),
    figureCell(String(s.requests)),
    figureCell(`${ms(s.p50_ms)} ms`),
    figureCell(`${ms(s.p99_ms)} ms`),
    figureCell(pct(s.error_rate)),
    figureCell(String(s.dropped_iterations)),
    `<span class="${s.held ? 'ok' : 'bad'}">${s.held ? '✓ held' : `✗ ${esc(s.broken.join('; '))}`}</span>`,
  ]);
  return `<${h}>Breakpoint</${h}>
<p>${esc(answer(b)).replace(/\*\*(.+?)\*\*/g, '<b>$1</b>')} ${esc(b.limit)}</p>
${breakpointChart(b, thresholds)}
${table(['arrival rate', 'requests', 'resolve p50', 'resolve p99', 'failed', 'arrivals dropped', 'held'], rows)}`;
}
