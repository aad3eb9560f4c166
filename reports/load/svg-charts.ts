// Inline SVG charts for the load report: no scripts, no fonts or files to
// fetch, so the page reads offline.
import type { PhaseRow, ThresholdRow } from '../../load/runner/load-report.ts';

export const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

/**
 * One row per threshold: the measured value as a bar on a scale where the
 * limit sits at the middle line, green inside the limit, red outside.
 */
export function thresholdChart(rows: ThresholdRow[]): string {
  const width = 720;
  const rowH = 34;
  const left = 230;
  const scale = width - left - 120;
  const height = rows.length * rowH + 20;
  const parts = rows.map((t, i) => {
    const y = 10 + i * rowH;
    const limit = t.limit ?? 0;
    const value = t.value ?? 0;
    // The limit maps to half the scale; values are capped at twice the limit.
    const ratio = limit > 0 ? Math.min(2, Math.max(0, value / limit)) : value === limit ? 1 : 2;
    const barW = (ratio / 2) * scale;
    const color = t.ok ? '#2e7d32' : '#c62828';
    const margin = t.margin === null ? 'n/a' : `${t.margin >= 0 ? '+' : ''}${fmt(t.margin)} ${t.unit}`;
    return [
      `<text x="0" y="${y + 17}" font-size="12">${escapeXml(t.label)}</text>`,
      `<rect x="${left}" y="${y + 4}" width="${scale}" height="18" fill="#eee"/>`,
      `<rect x="${left}" y="${y + 4}" width="${barW.toFixed(1)}" height="18" fill="${color}"/>`,
      `<line x1="${left + scale / 2}" x2="${left + scale / 2}" y1="${y}" y2="${y + 26}" stroke="#000" stroke-dasharray="3,2"/>`,
      `<text x="${left + scale + 8}" y="${y + 17}" font-size="12">${escapeXml(`${t.value === null ? 'n/a' : fmt(value)} (${margin})`)}</text>`,
    ].join('');
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="thresholds: value against limit (dashed line)">${parts.join('')}</svg>`;
}

/** Grouped bars of p50, p95 and p99 latency per phase, on a log scale. */
export function latencyChart(phases: PhaseRow[]): string {
  const rows = phases.filter((p) => p.latency_ms && p.latency_ms['count']);
  const width = 720;
  const rowH = 46;
  const left = 170;
  const scale = width - left - 150;
  const max = Math.max(1, ...rows.map((p) => p.latency_ms!['p(99)'] ?? p.latency_ms!['max'] ?? 1));
  const x = (ms: number) => (Math.log10(1 + ms) / Math.log10(1 + max)) * scale;
  const stats: [string, string][] = [
    ['med', '#90caf9'],
    ['p(95)', '#42a5f5'],
    ['p(99)', '#1565c0'],
  ];
  const parts = rows.map((p, i) => {
    const y = 10 + i * rowH;
    const bars = stats.map(([k, color], j) => {
      const v = p.latency_ms![k] ?? 0;
      return `<rect x="${left}" y="${y + j * 12}" width="${x(v).toFixed(1)}" height="10" fill="${color}"/><text x="${left + x(v) + 4}" y="${y + j * 12 + 9}" font-size="10">${escapeXml(`${k} ${fmt(v)} ms`)}</text>`;
    });
    return `<text x="0" y="${y + 20}" font-size="12">${escapeXml(p.name)}</text>${bars.join('')}`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${rows.length * rowH + 20}" role="img" aria-label="latency per phase, log scale">${parts.join('')}</svg>`;
}

/** Routes created per bucket over the run, as bars. */
export function throughputChart(series: { start_ms: number; bucket_ms: number; counts: number[] }): string {
  const width = 720;
  const height = 180;
  const plotH = 140;
  if (series.counts.length === 0) return '<p>No routes were created.</p>';
  const perSecond = series.counts.map((c) => (c * 1000) / series.bucket_ms);
  const max = Math.max(...perSecond, 1);
  const barW = (width - 60) / perSecond.length;
  const bars = perSecond.map((v, i) => {
    const h = (v / max) * plotH;
    return `<rect x="${(50 + i * barW).toFixed(1)}" y="${(10 + plotH - h).toFixed(1)}" width="${Math.max(1, barW - 1).toFixed(1)}" height="${h.toFixed(1)}" fill="#6a1b9a"><title>${fmt(v)} routes/s at +${((i * series.bucket_ms) / 1000).toFixed(1)} s</title></rect>`;
  });
  const span = ((series.counts.length * series.bucket_ms) / 1000).toFixed(1);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="routes created per second over the run">
<text x="0" y="16" font-size="10">${fmt(max)}/s</text><text x="0" y="${plotH + 10}" font-size="10">0</text>
${bars.join('')}<text x="50" y="${height - 8}" font-size="10">0 s</text><text x="${width - 60}" y="${height - 8}" font-size="10">${span} s</text></svg>`;
}
