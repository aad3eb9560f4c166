// Clause coverage as a picture: one bar per section of contract/spec.md,
// split by the status its clauses ended with, in the section's order, with
// the counts beside it. The clause table stays behind it for the detail.
import { barChart, span } from './bar-rows.ts';
import { escapeXml as esc } from './svg.ts';

const STATUSES = [
  { name: 'pass', label: 'pass', color: '#2da44e' },
  { name: 'fail', label: 'fail', color: '#cf222e' },
  { name: 'error', label: 'could not judge', color: '#bc4c00' },
  { name: 'skip', label: 'skip', color: '#afb8c1' },
  { name: 'unknown', label: 'not exercised', color: '#d8dee4' },
] as const;

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
    .map(([section, counts]) => {
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      let at = 0;
      const marks = STATUSES.filter((s) => (counts.get(s.name) ?? 0) > 0).map((s) => {
        const n = counts.get(s.name)!;
        const from = at;
        at += (n / total) * 100;
        return span(from, at, s.color, `${section}: ${n} ${s.label}`);
      });
      const parts = STATUSES.filter((s) => (counts.get(s.name) ?? 0) > 0).map((s) => `${counts.get(s.name)} ${s.label}`);
      return { label: esc(section), marks: marks.join(''), value: `${total} clause${total === 1 ? '' : 's'}: ${esc(parts.join(', '))}` };
    });
  return barChart({
    label: 'clauses per section of the contract, by status',
    caption: 'Clauses per section of the contract, by status (share of the section)',
    rows,
    legend: STATUSES.map((s) => ({ name: s.label, color: s.color, style: 'area' as const })),
  });
}
