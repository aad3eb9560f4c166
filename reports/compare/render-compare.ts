// A comparison of two runs as a page and as Markdown: what each run was, the
// verdicts, what changed status, and latency per phase and percentile with
// its change, each change flagged against the noise band, which is stated
// with how it was computed.
import { escapeXml as esc } from '../charts/svg.ts';
import { measured } from '../figures.ts';
import { identityMarkdown } from '../identity-md.ts';
import { badge, facts, figureCell, pageEnd, pageStart, table, VERDICT_WORDS } from '../look.ts';
import {
  BAND_FLOOR_PCT,
  MIN_INTERVAL_REQUESTS,
  MIN_INTERVALS,
  MIN_PHASE_REQUESTS,
  type Comparison,
  type RunSide,
  type StatusChange,
} from './compare-runs.ts';

const signed = (pct: number) => `${pct >= 0 ? '+' : '−'}${measured(Math.abs(pct))} %`;
const spread = (pct: number | null) => (pct === null ? 'too few intervals' : `${measured(pct)} %`);

export const BAND_RULE = `The noise band of a phase's percentile is the larger of ${BAND_FLOOR_PCT} % and each run's spread of that percentile in that phase between its time intervals: the interquartile range of the per-interval values over their median, from the phase's intervals of at least ${MIN_INTERVAL_REQUESTS} requests (with fewer than ${MIN_INTERVALS} such intervals a run's spread is unknown and does not widen the band). A change within the band is not evidence of anything; beyond it, a rise is flagged as a regression. A phase is compared where each run made at least ${MIN_PHASE_REQUESTS} requests in it.`;

function summaryLine(c: Comparison): string {
  const how =
    c.verdict.direction === 'same' ? 'the same verdict' : c.verdict.direction === 'worse' ? 'a worse verdict' : 'a better verdict';
  const of = c.verdict.of === 'run' ? '' : `${c.verdict.of}: `;
  return `${of}A ${VERDICT_WORDS[c.verdict.a]} → B ${VERDICT_WORDS[c.verdict.b]}: ${how}; ${c.regressions} regression(s) flagged.`;
}

function sideFacts(label: string, s: RunSide): Array<[string, string]> {
  return [
    [label, `<code>${esc(s.dir)}</code> (${esc(s.kind)} run <code>${esc(s.identity.run)}</code>)`],
    ['harness', esc(s.identity.harness)],
    ['contract', s.identity.contract ? `<code>${esc(s.identity.contract)}</code>` : 'not recorded'],
    [
      'case set',
      s.identity.caseSet
        ? `<code>${esc(s.identity.caseSet.digest)}</code> (${s.identity.caseSet.count} ${esc(s.identity.caseSet.of)})`
        : 'not recorded',
    ],
    ['rerun', s.identity.rerun ? `<code>${esc(s.identity.rerun)}</code>` : 'not recorded'],
  ];
}

function changesTable(changes: StatusChange[]): string {
  if (changes.length === 0) return '<p>None changed status.</p>';
  return table(
    ['', 'A', 'B'],
    changes.map((c) => [`${badge(c.direction)} <code>${esc(c.id)}</code>`, c.a ? badge(c.a) : 'absent', c.b ? badge(c.b) : 'absent']),
  );
}

const ids = (what: string, list: string[]) =>
  list.length
    ? `<details><summary>${list.length} ${what}</summary><p>${list.map((id) => `<code>${esc(id)}</code>`).join(', ')}</p></details>`
    : '';

export function renderComparisonHtml(c: Comparison): string {
  const latency = c.latency
    ? `<h2>Latency per phase</h2><p>${esc(BAND_RULE)}</p>
${table(
  ['phase', 'percentile', 'A', 'B', 'change', 'spread of A', 'spread of B', 'noise band', ''],
  c.latency.map((r) => [
    esc(r.phase),
    r.percentile,
    figureCell(`${measured(r.a_ms)} ms`),
    figureCell(`${measured(r.b_ms)} ms`),
    figureCell(signed(r.delta_pct)),
    figureCell(spread(r.spread_a_pct)),
    figureCell(spread(r.spread_b_pct)),
    figureCell(`±${measured(r.band_pct)} %`),
    r.flag === 'regression'
      ? badge('worse', 'regression')
      : r.flag === 'improvement'
        ? badge('better', 'improvement')
        : `<span class="muted">${r.flag}</span>`,
  ]),
)}`
    : '<h2>Latency per phase</h2><p class="muted">Latency is compared only when both runs have a load report.</p>';
  const cases = c.cases
    ? `<h2>Conformance cases</h2>${changesTable(c.cases.changed)}${ids('case(s) only in B', c.cases.added)}${ids('case(s) only in A', c.cases.removed)}`
    : '';
  const properties = c.properties ? `<h2>Property suites</h2>${changesTable(c.properties)}` : '';
  return `${pageStart({ title: `fleetproof comparison: ${c.a.identity.run} → ${c.b.identity.run}`, heading: 'fleetproof comparison', verdict: 'comparison', summary: esc(summaryLine(c)) })}
<h2>The two runs</h2>${facts([...sideFacts('A', c.a), ...sideFacts('B', c.b)])}
${c.same_case_set === false ? '<p class="partial">The case sets differ.</p>' : c.same_case_set ? '<p>Both runs ran the same case set.</p>' : ''}
${c.notes.length ? `<ul>${c.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
${cases}${properties}${latency}
${pageEnd}`;
}

export function renderComparisonMarkdown(c: Comparison): string {
  const lines = ['# fleetproof comparison', '', summaryLine(c), ''];
  for (const [label, side] of [
    ['A', c.a],
    ['B', c.b],
  ] as const)
    lines.push(`## ${label}: \`${side.dir}\` (${side.kind})`, '', ...identityMarkdown(side.identity));
  if (c.same_case_set === false) lines.push('**The case sets differ.**', '');
  for (const n of c.notes) lines.push(`- ${n}`);
  if (c.notes.length) lines.push('');
  const changes = (title: string, list: StatusChange[]) => {
    lines.push(`## ${title}`, '');
    if (list.length === 0) lines.push('None changed status.', '');
    else
      lines.push(
        '| | A | B |',
        '|---|---|---|',
        ...list.map((x) => `| ${x.direction} \`${x.id}\` | ${x.a ?? 'absent'} | ${x.b ?? 'absent'} |`),
        '',
      );
  };
  if (c.cases) {
    changes('Conformance cases', c.cases.changed);
    if (c.cases.added.length) lines.push(`Only in B: ${c.cases.added.map((x) => `\`${x}\``).join(', ')}`, '');
    if (c.cases.removed.length) lines.push(`Only in A: ${c.cases.removed.map((x) => `\`${x}\``).join(', ')}`, '');
  }
  if (c.properties) changes('Property suites', c.properties);
  if (c.latency) {
    lines.push('## Latency per phase', '', BAND_RULE, '', '| phase | percentile | A | B | change | spread of A | spread of B | band | |');
    lines.push('|---|---|---|---|---|---|---|---|---|');
    for (const r of c.latency)
      lines.push(
        `| ${r.phase} | ${r.percentile} | ${measured(r.a_ms)} ms | ${measured(r.b_ms)} ms | ${signed(r.delta_pct)} | ${spread(r.spread_a_pct)} | ${spread(r.spread_b_pct)} | ±${measured(r.band_pct)} % | ${r.flag} |`,
      );
    lines.push('');
  }
  return lines.join('\n');
}
