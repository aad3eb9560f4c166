// Clause coverage as a picture: one bar per section of contract/spec.md,
// split by the status its clauses ended with, in the section's order. The
// clause table stays behind it for the detail.
import { stackedBars } from './svg.ts';

const STATUSES = [
  { name: 'pass', color: '#2da44e' },
  { name: 'fail', color: '#cf222e' },
  { name: 'error', color: '#bc4c00' },
  { name: 'skip', color: '#afb8c1' },
  { name: 'unknown', color: '#eaeef2' },
] as const;

const LEGEND_NAMES: Record<string, string> = { unknown: 'not exercised' };

export function coverageChart(clauses: ReadonlyArray<{ section: string; status: string }>): string {
  const sections = new Map<string, Map<string, number>>();
  for (const c of clauses) {
    const counts = sections.get(c.section) ?? new Map<string, number>();
    counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
    sections.set(c.section, counts);
  }
  const sectionNumber = (s: string) => Number(/^(\d+)/.exec(s)?.[1] ?? Infinity);
  const rows = [...sections]
    .sort(([a], [b]) => sectionNumber(a) - sectionNumber(b))
    .map(([section, counts]) => ({
      label: section,
      parts: STATUSES.map((s) => ({ name: LEGEND_NAMES[s.name] ?? s.name, value: counts.get(s.name) ?? 0, color: s.color })),
    }));
  return stackedBars({
    label: 'clauses per section of the contract, by status (share of the section; the number is its clause count)',
    rows,
    legend: STATUSES.map((s) => ({ name: LEGEND_NAMES[s.name] ?? s.name, color: s.color })),
  });
}
