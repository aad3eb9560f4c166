// Chart primitives every report page shares: inline SVG with a viewBox, so a
// chart scales down to a phone's width instead of being cropped, and never
// grows past the width it was drawn for. No scripts, no fonts, nothing fetched.

export const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A figure for a chart label: three significant digits at most. */
export const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

/** A tick label: as few digits as the tick needs (0, 0.5, 20, 1500). */
const tick = (n: number) => String(Number(n.toPrecision(3)));

/** The width every chart is drawn at; on narrower screens it scales down whole. */
export const CHART_WIDTH = 720;

/** An SVG element that scales with its box: viewBox, no fixed width, at most its drawn width. */
export function svgFrame(width: number, height: number, label: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${width} ${height}" style="max-width:${width}px" role="img" aria-label="${escapeXml(label)}"><title>${escapeXml(label)}</title>${body}</svg>`;
}

export const text = (x: number, y: number, content: string, attrs = '') =>
  `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-size="12"${attrs ? ` ${attrs}` : ''}>${escapeXml(content)}</text>`;

export const rect = (x: number, y: number, w: number, h: number, fill: string, tooltip?: string) =>
  `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(0, w).toFixed(1)}" height="${Math.max(0, h).toFixed(1)}" fill="${fill}">${tooltip ? `<title>${escapeXml(tooltip)}</title>` : ''}</rect>`;

export interface Series {
  name: string;
  color: string;
  /** [x, y] in data units; x ascending. A null y is a gap: the line stops there and starts again after. */
  points: Array<[number, number | null]>;
}

/** Round ticks (1, 2, 5 × 10^k) covering 0..max. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let t = 0; t <= max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks[ticks.length - 1]! + step).toPrecision(12)));
  return ticks;
}

/**
 * Lines over time on a linear scale from zero, with the axis titled, ticks
 * labelled and a legend: what a reader needs to read a value off it.
 */
export function lineChart(args: { label: string; yTitle: string; xTitle: string; series: Series[]; height?: number }): string {
  const width = CHART_WIDTH;
  const height = args.height ?? 200;
  const plot = { left: 56, right: width - 12, top: 26, bottom: height - 34 };
  const all = args.series.flatMap((s) => s.points.filter((p): p is [number, number] => p[1] !== null));
  if (all.length === 0) return `<p class="muted">${escapeXml(args.label)}: no data.</p>`;
  const xMax = Math.max(...all.map(([x]) => x), 1e-9);
  const yTicks = niceTicks(Math.max(...all.map(([, y]) => y)));
  const yMax = yTicks[yTicks.length - 1]!;
  const px = (x: number) => plot.left + (x / xMax) * (plot.right - plot.left);
  const py = (y: number) => plot.bottom - (y / yMax) * (plot.bottom - plot.top);
  const grid = yTicks.map(
    (t) =>
      `<line x1="${plot.left}" x2="${plot.right}" y1="${py(t).toFixed(1)}" y2="${py(t).toFixed(1)}" stroke="#eaeef2"/>${text(plot.left - 6, py(t) + 4, tick(t), 'text-anchor="end" font-size="11"')}`,
  );
  const xTicks = niceTicks(xMax).filter((t) => t <= xMax * 1.0001);
  const xAxis = xTicks.map((t) => text(px(t), plot.bottom + 15, tick(t), 'text-anchor="middle" font-size="11"'));
  const lines = args.series.map((s) => {
    let gap = true;
    const d = s.points
      .map(([x, y]) => {
        if (y === null) return ((gap = true), '');
        const step = `${gap ? 'M' : 'L'}${px(x).toFixed(1)},${py(y).toFixed(1)}`;
        gap = false;
        return step;
      })
      .join('');
    // A dot per point as well, so a bucket between two gaps still shows.
    const dots = s.points
      .filter((p): p is [number, number] => p[1] !== null)
      .map(([x, y]) => `<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="2" fill="${s.color}"/>`);
    return `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.8"/>${dots.join('')}`;
  });
  let legendX = plot.left;
  const legend = args.series.map((s) => {
    const item = `${rect(legendX, 6, 10, 10, s.color)}${text(legendX + 14, 15, s.name, 'font-size="11"')}`;
    legendX += 24 + s.name.length * 6.5;
    return item;
  });
  const body = [
    ...grid,
    `<line x1="${plot.left}" x2="${plot.left}" y1="${plot.top}" y2="${plot.bottom}" stroke="#8c959f"/>`,
    `<line x1="${plot.left}" x2="${plot.right}" y1="${plot.bottom}" y2="${plot.bottom}" stroke="#8c959f"/>`,
    ...xAxis,
    text(plot.right, height - 4, args.xTitle, 'text-anchor="end" font-size="11"'),
    text(legendX + 8, 15, args.yTitle, 'font-size="11" fill="#57606a"'),
    ...lines,
    ...legend,
  ];
  return svgFrame(width, height, args.label, body.join(''));
}

export interface StackedRow {
  label: string;
  parts: Array<{ name: string; value: number; color: string }>;
}

/** One horizontal bar per row, split into its parts, each row to the same full length (shares of the row). */
export function stackedBars(args: { label: string; rows: StackedRow[]; legend: Array<{ name: string; color: string }> }): string {
  const width = CHART_WIDTH;
  const rowH = 36;
  const top = 24;
  const barW = width - 60;
  const height = top + args.rows.length * rowH + 4;
  let legendX = 0;
  const legend = args.legend.map((l) => {
    const item = `${rect(legendX, 4, 10, 10, l.color)}${text(legendX + 14, 13, l.name, 'font-size="11"')}`;
    legendX += 24 + l.name.length * 6.5;
    return item;
  });
  const rows = args.rows.map((row, i) => {
    const y = top + i * rowH;
    const total = row.parts.reduce((n, p) => n + p.value, 0);
    let x = 0;
    const bars = row.parts
      .filter((p) => p.value > 0)
      .map((p) => {
        const w = total > 0 ? (p.value / total) * barW : 0;
        const bar = rect(x, y + 14, w, 14, p.color, `${row.label}: ${p.value} ${p.name}`);
        x += w;
        return bar;
      });
    return `${text(0, y + 11, row.label)}${rect(0, y + 14, barW, 14, '#f6f8fa')}${bars.join('')}${text(barW + 6, y + 25, String(total), 'font-size="11"')}`;
  });
  return svgFrame(width, height, args.label, [...legend, ...rows].join(''));
}
