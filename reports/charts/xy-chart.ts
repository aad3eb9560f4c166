// Charts over a numeric x axis (time, arrival rate), one or more panels on
// that one axis: step lines and areas for bucketed figures (a bucket's value
// holds over its whole width, so a sparse run shows its gaps honestly),
// bands between two percentiles, lines with dots between measured points,
// reference lines for limits (SLOs), shaded x ranges (faults) and marked x
// values (a breakpoint). Ticks, titles, units and legends are HTML; the marks
// are one SVG per panel in a 1000 × 1000 space stretched to the panel.
import { edge, escapeXml as esc, niceTicks, tickLabel } from './svg.ts';

export interface Axis {
  max: number;
  ticks: number[];
  /** The axis title, with its unit: "seconds into the run", "latency, ms". */
  title: string;
}

/** Values over [x, x + step): a bucket of a time series. */
export interface StepSeries {
  kind: 'step' | 'area';
  name: string;
  color: string;
  step: number;
  points: ReadonlyArray<readonly [number, number | null]>;
}

/** The range between two values over each bucket. */
export interface BandSeries {
  kind: 'band';
  name: string;
  color: string;
  step: number;
  points: ReadonlyArray<readonly [number, number | null, number | null]>;
}

/** Measured points joined by a line, each marked with a dot. */
export interface LineSeries {
  kind: 'line';
  name: string;
  color: string;
  points: ReadonlyArray<readonly [number, number | null]>;
}

export type Series = StepSeries | BandSeries | LineSeries;

export interface Panel {
  /** What the y axis measures, with its unit. */
  title: string;
  height: number;
  y: Axis;
  series: Series[];
  /** Horizontal limits, each labelled at its right end. */
  refs?: Array<{ y: number; label: string; color: string }>;
}

export interface LegendItem {
  name: string;
  color: string;
  style: 'line' | 'area' | 'dash';
}

/** An axis from 0 to round ticks covering `max` (at least `floor`). */
export function linearAxis(max: number, title: string, floor = 1): Axis {
  const ticks = niceTicks(Math.max(max, floor));
  return { max: ticks[ticks.length - 1]!, ticks, title };
}

const STROKE = 'vector-effect="non-scaling-stroke" fill="none"';
const pct = (v: number) => `${Number(v.toFixed(3))}%`;

function scale(axis: Axis) {
  return (v: number) => Math.min(1000, Math.max(0, (v / (axis.max || 1)) * 1000));
}

/** Runs of consecutive buckets that hold a value. */
function runs<P extends readonly [number, ...Array<number | null>]>(points: readonly P[], step: number, has: (p: P) => boolean): P[][] {
  const out: P[][] = [];
  let current: P[] = [];
  for (const p of points) {
    const last = current[current.length - 1];
    if (!has(p)) {
      if (current.length) out.push(current);
      current = [];
    } else if (last && Math.abs(last[0] + step - p[0]) > step * 1e-6) {
      out.push(current);
      current = [p];
    } else current.push(p);
  }
  if (current.length) out.push(current);
  return out;
}

function marks(s: Series, X: (v: number) => number, Y: (v: number) => number): string {
  const f = (n: number) => n.toFixed(1);
  if (s.kind === 'line') {
    const line = s.points
      .map((p, i) => (p[1] === null ? '' : `${i === 0 || s.points[i - 1]![1] === null ? 'M' : 'L'}${f(X(p[0]))} ${f(1000 - Y(p[1]))}`))
      .join('');
    const dots = s.points
      .filter((p) => p[1] !== null)
      .map((p) => `M${f(X(p[0]))} ${f(1000 - Y(p[1]!))}h0`)
      .join('');
    return `<path d="${line}" stroke="${s.color}" stroke-width="2" ${STROKE}/><path d="${dots}" stroke="${s.color}" stroke-width="7" stroke-linecap="round" ${STROKE}/>`;
  }
  if (s.kind === 'band') {
    const polygons = runs(s.points, s.step, (p) => p[1] !== null && p[2] !== null).map((run) => {
      const upper = run.map((p) => `L${f(X(p[0]))} ${f(1000 - Y(p[2]!))}H${f(X(p[0] + s.step))}`).join('');
      const lower = [...run]
        .reverse()
        .map((p) => `L${f(X(p[0] + s.step))} ${f(1000 - Y(p[1]!))}H${f(X(p[0]))}`)
        .join('');
      return `M${f(X(run[0]![0]))} ${f(1000 - Y(run[0]![1]!))}${upper}${lower}Z`;
    });
    return `<path d="${polygons.join('')}" fill="${s.color}" fill-opacity="0.22" stroke="none"/>`;
  }
  const segments = runs(s.points, s.step, (p) => p[1] !== null);
  const steps = (run: ReadonlyArray<readonly [number, number | null]>) =>
    run.map((p, i) => `${i === 0 ? 'M' : 'V'}${i === 0 ? `${f(X(p[0]))} ` : ''}${f(1000 - Y(p[1]!))}H${f(X(p[0] + s.step))}`).join('');
  if (s.kind === 'step') return `<path d="${segments.map(steps).join('')}" stroke="${s.color}" stroke-width="2" ${STROKE}/>`;
  const areas = segments.map((run) => `${steps(run).replace(/^M([\d.]+) /, 'M$1 1000V')}V1000Z`);
  return `<path d="${areas.join('')}" fill="${s.color}" fill-opacity="0.55" stroke="${s.color}" stroke-width="1" vector-effect="non-scaling-stroke"/>`;
}

export function legend(items: readonly LegendItem[]): string {
  return `<div class="legend">${items
    .map((k) => `<span class="key"><i class="${k.style}" style="background:${k.color};border-color:${k.color}"></i>${esc(k.name)}</span>`)
    .join('')}</div>`;
}

/**
 * One figure: caption, legend, each panel with its y ticks and limits, then
 * the shared x axis with its title. `xBands` shade x ranges across every
 * panel (each with a tooltip); `xMarks` draw a labelled vertical line.
 */
export function xyChart(args: {
  label: string;
  caption: string;
  x: Axis;
  panels: Panel[];
  legend: LegendItem[];
  xBands?: Array<{ from: number; to: number; color: string; title: string }>;
  /** Vertical lines at x values, each labelled on the side given (left of the line, or right of it). */
  xMarks?: Array<{ x: number; label: string; color: string; side: 'left' | 'right' }>;
  note?: string;
}): string {
  const X = scale(args.x);
  const panels = args.panels.map((p, index) => {
    const Y = scale(p.y);
    const grid = p.y.ticks.map((t) => `M0 ${(1000 - Y(t)).toFixed(1)}H1000`).join('');
    const shaded = (args.xBands ?? []).map(
      (b) =>
        `<rect x="${X(b.from).toFixed(1)}" y="0" width="${Math.max(2, X(b.to) - X(b.from)).toFixed(1)}" height="1000" fill="${b.color}" fill-opacity="0.45"><title>${esc(b.title)}</title></rect>`,
    );
    const refs = (p.refs ?? []).filter((r) => r.y <= p.y.max);
    const refLines = refs.map(
      (r) => `<path d="M0 ${(1000 - Y(r.y)).toFixed(1)}H1000" stroke="${r.color}" stroke-width="1.5" stroke-dasharray="6 4" ${STROKE}/>`,
    );
    const xLines = (args.xMarks ?? []).map(
      (m) => `<path d="M${X(m.x).toFixed(1)} 0V1000" stroke="${m.color}" stroke-width="2" stroke-dasharray="5 3" ${STROKE}/>`,
    );
    const svg = `<svg viewBox="0 0 1000 1000" preserveAspectRatio="none" aria-hidden="true">${shaded.join('')}<path d="${grid}" stroke="#eaeef2" ${STROKE}/><path d="M0 0V1000H1000" stroke="#8c959f" ${STROKE}/>${p.series.map((s) => marks(s, X, Y)).join('')}${refLines.join('')}${xLines.join('')}</svg>`;
    const yTicks = p.y.ticks.map((t) => `<span class="yt" style="bottom:${pct(Y(t) / 10)}">${esc(tickLabel(t))}</span>`);
    const refLabels = refs.map((r) => {
      const at = Y(r.y) / 10;
      const place = at > 80 ? `top:${pct(100 - at)}` : `bottom:${pct(at)}`;
      return `<span class="ref" style="${place};color:${r.color}">${esc(r.label)}</span>`;
    });
    const markLabels =
      index === 0
        ? (args.xMarks ?? []).map(
            (m) =>
              `<span class="xmark" style="left:${pct(X(m.x) / 10)};color:${m.color}${m.side === 'left' ? ';transform:translateX(calc(-100% - 4px))' : ''}">${esc(m.label)}</span>`,
          )
        : [];
    return `<div class="ptitle">${esc(p.title)}</div><div class="plot" style="height:${p.height}px">${svg}${yTicks.join('')}${refLabels.join('')}${markLabels.join('')}</div>`;
  });
  const xTicks = args.x.ticks.map((t) => `<span class="xt" style="left:${pct(X(t) / 10)}${edge(X(t) / 10)}">${esc(tickLabel(t))}</span>`);
  return `<figure class="chart" role="img" aria-label="${esc(args.label)}"><figcaption>${esc(args.caption)}</figcaption>${legend(args.legend)}${panels.join('')}<div class="xaxis">${xTicks.join('')}</div><div class="atitle">${esc(args.x.title)}</div>${args.note ? `<div class="muted">${args.note}</div>` : ''}</figure>`;
}
