// The faults stage's timeline, in the manner of Jepsen's plots: latency,
// throughput and errors per second through the proxy, with every fault a
// shaded band across all three. Inline SVG, readable offline.
import { escapeXml } from './svg.ts';
import type { FaultBandRow, FaultsDocument, TrafficRow } from '../schemas/faults-result.ts';

const WIDTH = 720;
const LEFT = 60;
const PLOT_H = 90;
const GAP = 28;
const COLORS: Record<string, string> = {
  proxy: '#ffcc80',
  storage: '#ef9a9a',
  process: '#ce93d8',
  'pg-terminate': '#90caf9',
  'pg-restart': '#ef9a9a',
  'process-kill': '#ce93d8',
};
const bandColor = (fault: string) => COLORS[fault] ?? '#b0bec5';

function panel(y: number, label: string, values: number[], seconds: number, color: string, bands: readonly FaultBandRow[]): string {
  const plotW = WIDTH - LEFT - 10;
  const max = Math.max(1, ...values);
  const x = (s: number) => LEFT + (s / Math.max(1, seconds)) * plotW;
  const shaded = bands.map(
    (b) =>
      `<rect x="${x(b.start / 1000).toFixed(1)}" y="${y}" width="${Math.max(1, x(b.end / 1000) - x(b.start / 1000)).toFixed(1)}" height="${PLOT_H}" fill="${bandColor(b.fault)}" opacity="0.6"><title>${escapeXml(`${b.fault} ${b.start}–${b.end} ms${b.recovery_ms !== null ? `, ready ${b.recovery_ms} ms after the heal` : ''}`)}</title></rect>`,
  );
  const points = values.map((v, i) => `${x(i + 0.5).toFixed(1)},${(y + PLOT_H - (v / max) * PLOT_H).toFixed(1)}`).join(' ');
  return [
    // The label sits above its panel, the scale to its left: neither covers the plot.
    `<text x="${LEFT}" y="${y - 5}" font-size="11">${escapeXml(label)}</text><text x="0" y="${y + 10}" font-size="10">${Math.round(max)}</text><text x="0" y="${y + PLOT_H}" font-size="10">0</text>`,
    `<rect x="${LEFT}" y="${y}" width="${plotW}" height="${PLOT_H}" fill="none" stroke="#ccc"/>`,
    ...shaded,
    `<polyline points="${points}" fill="none" stroke="${color}" stroke-width="1.5"/>`,
  ].join('');
}

export function faultsTimeline(doc: Pick<FaultsDocument, 'bands' | 'traffic'>): string {
  const traffic: TrafficRow[] = doc.traffic;
  if (traffic.length === 0) return '<p class="muted">No traffic went through the proxy.</p>';
  const seconds = Math.max(traffic.length, ...doc.bands.map((b) => Math.ceil(b.end / 1000)));
  const panels = [
    panel(
      GAP,
      'latency, ms (mean per second)',
      traffic.map((t) => t.latency_ms_mean),
      seconds,
      '#1565c0',
      doc.bands,
    ),
    panel(
      GAP + PLOT_H + GAP,
      'requests per second',
      traffic.map((t) => t.requests),
      seconds,
      '#6a1b9a',
      doc.bands,
    ),
    panel(
      GAP + 2 * (PLOT_H + GAP),
      'errors per second (5xx, resets, lost answers)',
      traffic.map((t) => t.errors),
      seconds,
      '#c62828',
      doc.bands,
    ),
  ];
  const height = GAP + 3 * (PLOT_H + GAP) + 10;
  const legend = [...new Set(doc.bands.map((b) => b.fault))].map(
    (f, i) =>
      `<rect x="${LEFT + i * 110}" y="${height - 22}" width="12" height="12" fill="${bandColor(f)}"/><text x="${LEFT + i * 110 + 16}" y="${height - 12}" font-size="11">${escapeXml(f)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${WIDTH} ${height + 10}" style="max-width:${WIDTH}px" role="img" aria-label="latency, throughput and errors per second, faults shaded">${panels.join('')}${legend.join('')}<text x="${WIDTH - 60}" y="${height - 12}" font-size="10">${seconds} s</text></svg>`;
}

/** Every fault with its time and recovery, folded away under the timeline. */
export function faultBandsDetails(bands: readonly FaultBandRow[]): string {
  const rows = bands
    .map(
      (b) =>
        `<tr><td>${escapeXml(b.fault)}</td><td>${b.start}–${b.end} ms</td><td>${b.recovery_ms ?? '-'} ms</td><td>${escapeXml(b.error ?? '')}</td></tr>`,
    )
    .join('');
  return `<details><summary>Every fault</summary><table><tr><th>fault</th><th>when</th><th>ready after heal</th><th>error</th></tr>${rows}</table></details>`;
}
