// The breakpoint profile's part of the load report: the highest rate at
// which every SLO held, where and why it broke, and latency and errors against
// rate, as a table (Markdown and HTML) and an inline SVG chart.
import type { BreakpointResult } from '../../load/runner/breakpoint.ts';
import { escapeXml as esc } from '../charts/svg.ts';

const ms = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));
const pct = (v: number) => `${(v * 100).toFixed(2)} %`;
const answer = (b: BreakpointResult) =>
  b.highest_held_rate === null ? 'No rate held.' : `Every SLO held up to **${b.highest_held_rate} routes/s**.`;

export function breakpointMarkdown(b: BreakpointResult): string[] {
  const lines = [
    '## Breakpoint',
    '',
    `${answer(b)} ${b.limit}`,
    '',
    '| rate/s | requests | resolve med ms | resolve p99 ms | errors | dropped | held |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const s of b.steps)
    lines.push(
      `| ${s.rate} | ${s.requests} | ${ms(s.p50_ms)} | ${ms(s.p99_ms)} | ${pct(s.error_rate)} | ${s.dropped_iterations} | ${s.held ? '✓' : `✗ ${s.broken.join('; ')}`} |`,
    );
  return [...lines, ''];
}

/** p99 and median resolve latency (left axis) and error rate (bars) against the arrival rate. */
function breakpointChart(b: BreakpointResult): string {
  const steps = b.steps.filter((s) => s.p99_ms !== null);
  if (steps.length === 0) return '';
  const width = 720;
  const height = 240;
  const left = 50;
  const bottom = 30;
  const plotW = width - left - 20;
  const plotH = height - bottom - 20;
  const maxRate = Math.max(...steps.map((s) => s.rate));
  const maxMs = Math.max(1, ...steps.map((s) => s.p99_ms!));
  const x = (rate: number) => left + (rate / maxRate) * plotW;
  const y = (v: number) => 10 + plotH - (v / maxMs) * plotH;
  const line = (f: (s: (typeof steps)[number]) => number, color: string) =>
    `<polyline fill="none" stroke="${color}" stroke-width="2" points="${steps.map((s) => `${x(s.rate).toFixed(1)},${y(f(s)).toFixed(1)}`).join(' ')}"/>`;
  const errors = steps.map(
    (s) =>
      `<rect x="${(x(s.rate) - 3).toFixed(1)}" y="${(10 + plotH - s.error_rate * plotH).toFixed(1)}" width="6" height="${(s.error_rate * plotH).toFixed(1)}" fill="#e53935" opacity="0.6"/>`,
  );
  const marks = steps.map(
    (s) => `<circle cx="${x(s.rate).toFixed(1)}" cy="${y(s.p99_ms!).toFixed(1)}" r="3" fill="${s.held ? '#1565c0' : '#e53935'}"/>`,
  );
  const axes = `<line x1="${left}" y1="${10 + plotH}" x2="${left + plotW}" y2="${10 + plotH}" stroke="#666"/><line x1="${left}" y1="10" x2="${left}" y2="${10 + plotH}" stroke="#666"/>`;
  const labels = `<text x="${left}" y="${height - 8}" font-size="11">0</text><text x="${left + plotW - 60}" y="${height - 8}" font-size="11">${maxRate} routes/s</text><text x="2" y="18" font-size="11">${esc(maxMs.toFixed(0))} ms</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="resolve p99 (dark) and median (light) latency and error rate (red bars, 0 to 100 %) against arrival rate">${axes}${errors.join('')}${line((s) => s.p50_ms ?? 0, '#90caf9')}${line((s) => s.p99_ms!, '#1565c0')}${marks.join('')}${labels}</svg>`;
}

export function breakpointHtml(b: BreakpointResult): string {
  const rows = b.steps
    .map(
      (s) =>
        `<tr><td>${s.rate}</td><td>${s.requests}</td><td>${ms(s.p50_ms)}</td><td>${ms(s.p99_ms)}</td><td>${pct(s.error_rate)}</td><td>${s.dropped_iterations}</td><td class="${s.held ? 'ok' : 'bad'}">${s.held ? '✓' : `✗ ${esc(s.broken.join('; '))}`}</td></tr>`,
    )
    .join('');
  return `<h2>Breakpoint</h2>
<p>${answer(b).replace(/\*\*(.+?)\*\*/g, '<b>$1</b>')} ${esc(b.limit)}</p>
${breakpointChart(b)}
<table><tr><th>rate/s</th><th>requests</th><th>resolve med ms</th><th>resolve p99 ms</th><th>errors</th><th>dropped</th><th>held</th></tr>${rows}</table>`;
}
