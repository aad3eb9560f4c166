// Horizontal bar charts as HTML: one row per subject (a label, a track with
// its marks, the figure it stands for), all rows on one grid so their tracks
// line up under one axis. On a narrow screen the label and the figure move
// above and below the track instead of squeezing it.
import { edge, escapeXml as esc } from './svg.ts';
import { legend, type LegendItem } from './xy-chart.ts';

export interface BarRow {
  /** HTML. */
  label: string;
  /** Spans positioned inside the track (left and width in %). */
  marks: string;
  /** HTML: the figure the marks stand for. */
  value: string;
}

const pct = (v: number) => `${Number(Math.min(100, Math.max(0, v)).toFixed(3))}%`;

/** A span covering [from, to] % of the track, with a tooltip. */
export const span = (from: number, to: number, color: string, title: string) =>
  `<span style="left:${pct(from)};width:${pct(Math.max(0.4, to - from))};background:${color}" title="${esc(title)}"></span>`;

/** A dashed limit at `at` % of the track. */
export const limitMark = (at: number, title: string) => `<span class="limit" style="left:${pct(at)}" title="${esc(title)}"></span>`;

/** A dot at `at` % (a value of zero, which a bar cannot show). */
export const dotMark = (at: number, color: string, title: string) =>
  `<span class="dot" style="left:${pct(at)};background:${color}" title="${esc(title)}"></span>`;

export function barChart(args: {
  label: string;
  caption: string;
  rows: readonly BarRow[];
  legend?: LegendItem[];
  /** Ticks above the tracks: position in % and label; gridlines follow them down every track. */
  ticks?: ReadonlyArray<{ at: number; label: string }>;
}): string {
  const ticks = args.ticks ?? [];
  const grid = ticks.map((t) => `<span class="bgrid" style="left:${pct(t.at)}"></span>`).join('');
  const axis = ticks.length
    ? `<div class="blabel axis"></div><div class="baxis axis">${ticks.map((t) => `<span style="left:${pct(t.at)}${edge(t.at)}">${esc(t.label)}</span>`).join('')}</div><div class="bvalue axis"></div>`
    : '';
  const rows = args.rows.map(
    (r) => `<div class="blabel">${r.label}</div><div class="btrack">${grid}${r.marks}</div><div class="bvalue">${r.value}</div>`,
  );
  return `<figure class="chart" role="img" aria-label="${esc(args.label)}"><figcaption>${esc(args.caption)}</figcaption>${args.legend ? legend(args.legend) : ''}<div class="bars">${axis}${rows.join('')}</div></figure>`;
}
