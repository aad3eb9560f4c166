// What every chart shares: escaping, round ticks and their labels. Charts are
// drawn as HTML with an inline SVG plot stretched to its box (chart-frame.ts):
// their text is page text, the same size on a phone as on a desktop, and
// nothing is fetched.

export const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A tick label: as few digits as the tick needs (0, 0.5, 20, 1500, 12k). */
export function tickLabel(n: number): string {
  if (Math.abs(n) >= 10_000) return `${Number((n / 1000).toPrecision(3))}k`;
  return String(Number(n.toPrecision(3)));
}

/** Round ticks (1, 2, 5 × 10^k) from 0 covering max; the last tick is the axis' end. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw * (1 - 1e-9))!;
  const ticks: number[] = [];
  for (let t = 0; t <= max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max * (1 - 1e-9)) ticks.push(Number((ticks[ticks.length - 1]! + step).toPrecision(12)));
  return ticks;
}

/** Decades covering lo..hi for a log axis (0.1, 1, 10, ...), at least two. */
export function decadeTicks(lo: number, hi: number): number[] {
  const from = Math.floor(Math.log10(Math.max(lo, 1e-3)));
  const to = Math.max(from + 1, Math.ceil(Math.log10(Math.max(hi, 1e-3))));
  const ticks: number[] = [];
  for (let e = from; e <= to; e++) ticks.push(Number((10 ** e).toPrecision(12)));
  return ticks;
}

/** A tick at either end of an axis reads inward, so it never reaches past the chart. */
export const edge = (at: number) => (at <= 0.5 ? ';transform:none' : at >= 99.5 ? ';transform:translateX(-100%)' : '');
