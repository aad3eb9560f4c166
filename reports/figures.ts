// How every report writes a number: counts as whole numbers, measurements to
// three significant digits, always with their unit, and the figures a
// document records under raw keys with a human label (the key stays in a
// tooltip). One place, so "0.00 responses" cannot come back in one page.
import { escapeXml as esc } from './charts/svg.ts';

/** Three significant digits, no trailing zeros beyond them: 0.5, 12.4, 1530. */
export function measured(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return String(n);
  const a = Math.abs(n);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return String(Number(n.toFixed(digits)));
}

/** Units that count things: their figures are whole numbers. */
const COUNTED = /^(responses?|requests?|routes?|iterations?|checks?|violations?|errors?|items?|cases?|runs?)$/;

/** A measurement with its unit ("12.4 ms", "0 responses", "98.5 %"); n/a for none. */
export function withUnit(n: number | null | undefined, unit: string): string {
  if (n === null || n === undefined) return 'n/a';
  if (unit === 'ratio') return `${measured(n * 100)} %`;
  const text = COUNTED.test(unit) ? String(Math.round(n)) : measured(n);
  return unit ? `${text} ${unit}` : text;
}

/** A duration in milliseconds, in the unit a reader takes in at a glance. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return 'n/a';
  return ms >= 1000 ? `${measured(ms / 1000)} s` : `${measured(ms)} ms`;
}

/** The label and unit of a figure a document records by key; unknown keys read as words. */
const FIGURES: Record<string, [label: string, unit: string]> = {
  cases: ['cases', ''],
  pass: ['passed', ''],
  fail: ['failed', ''],
  skip: ['skipped', ''],
  error: ['could not judge', ''],
  retirement: ['run data', ''],
  suites: ['suites', ''],
  seed: ['seed', ''],
  runs: ['runs', ''],
  indeterminate_runs: ['indeterminate runs', ''],
  profile: ['profile', ''],
  engine: ['engine', ''],
  thresholds: ['thresholds', ''],
  routes_seen: ['routes', ''],
  route_p99_ms: ['route p99', 'ms'],
  faults: ['faults injected', ''],
  recovery_ms_max: ['slowest recovery', 'ms'],
  recovery_ms_median: ['median recovery', 'ms'],
  forwarded: ['requests forwarded', ''],
  lost_after_forward: ['responses lost', ''],
  reset_before_forward: ['requests reset', ''],
};

const VALUE_WORDS: Record<string, string> = { retired: 'retired', incomplete: 'retired in part', not_run: 'not retired', kept: 'kept' };

/** One figure as `label: value unit`, its raw key in a tooltip. */
export function figureHtml(key: string, value: string | number): string {
  const [label, unit] = FIGURES[key] ?? [key.replace(/_/g, ' '), key.endsWith('_ms') ? 'ms' : ''];
  const shown = typeof value === 'number' ? withUnit(value, unit) : (VALUE_WORDS[value] ?? value);
  return `<span class="nowrap" title="${esc(key)}">${esc(label)}: <b>${esc(shown)}</b></span>`;
}
