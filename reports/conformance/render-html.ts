// The HTML report: one self-contained page (inline CSS, no scripts, nothing
// fetched from the network), readable offline on a phone and on a desktop.
// Verdict, what produced the run and the command that reruns it first; then
// the failures grouped by cause with what reproduces them, the skips, clause
// coverage by section, the clause table, the target and every case.
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import { badge, facts, figureCell, pageEnd, pageStart, table, type RunIdentity } from '../look.ts';
import { coverageChart } from '../charts/coverage-chart.ts';
import { duration } from '../figures.ts';
import { versionTable } from '../version-table.ts';
import { failureHtml } from './failure-html.ts';
import { groupFailures, type FailureGroup } from './failure-groups.ts';

function group(r: ConformanceResult, g: FailureGroup, index: number): string {
  const [first, ...rest] = g.cases;
  const others = rest.length
    ? `<details><summary>${rest.length} more case(s) with this cause</summary>${rest.map((c) => `<details><summary>${badge(c.status)} <code>${esc(c.id)}</code></summary>${failureHtml(r, c)}</details>`).join('')}</details>`
    : '';
  return `<div class="group"><details${index < 3 ? ' open' : ''}><summary><strong>${g.cases.length} case(s)</strong>: <code>${esc(g.cause)}</code></summary>${failureHtml(r, first!)}${others}</details></div>`;
}

/** What produced a conformance run, for the page's head. */
export function conformanceIdentity(r: ConformanceResult): RunIdentity {
  return {
    run: r.run_id,
    harness: `${r.harness.name} ${r.harness.version}, commit ${r.harness.commit}${r.harness.dirty ? ' (modified)' : ''}, Node ${r.harness.node}`,
    contract: r.contract.revision ?? null,
    caseSet: r.case_set ? { ...r.case_set, of: 'cases' } : null,
    rerun: r.rerun ?? null,
  };
}

function retirementText(r: ConformanceResult): string {
  if (r.kept_data) return `kept (<code>--keep-data</code>); retire later with <code>${esc(r.kept_data.retire)}</code>`;
  const problems = r.retirement.failures.length ? `, ${r.retirement.failures.length} problems (listed below)` : '';
  return `${esc({ retired: 'retired', incomplete: 'retired in part', not_run: 'not retired' }[r.retirement.status])}${problems}`;
}

export function renderHtml(r: ConformanceResult): string {
  const s = r.summary;
  const v = r.target.version;
  const groups = groupFailures(r.cases);
  const runFacts: Array<[string, string]> = [
    ['Implementation', `${esc(v.implementation.name)} <b>${esc(v.implementation.version)}</b>`],
    ['Target', `<code>${esc(r.target.url)}</code>`],
    ['Contract declared', `<code>${esc(r.contract.version)}</code>`],
    [
      'Features',
      `declared: ${esc(r.features.declared.join(', ') || '(none)')}; tested: ${esc(r.features.effective.join(', ') || '(none)')}${r.features.overridden ? ' (overridden)' : ''}`,
    ],
    ['Started', `${esc(r.timings.started_at)}, took <span class="nowrap">${duration(r.timings.duration_ms)}</span>`],
    ['Server clock', `offset ${r.target.clock.offset_ms} ms (${esc(r.target.clock.source)})`],
    ['Run data', retirementText(r)],
  ];
  const clauseRows = r.clauses.map((c) => {
    const cases = c.exempt
      ? `<span class="muted">exempt: ${esc(c.exempt)}</span>`
      : c.cases.length
        ? c.cases.map((id) => `<code>${esc(id)}</code>`).join('<br>')
        : '<span class="muted">no case run</span>';
    const by = c.failed_by.length
      ? `<br><span class="muted">broken by</span> ${c.failed_by.map((id) => `<code>${esc(id)}</code>`).join(', ')}`
      : '';
    return [badge(c.status), `<code id="clause-${esc(c.id)}">[${esc(c.id)}]</code>`, esc(c.keyword), esc(c.section), cases + by];
  });
  const caseRows = r.cases.map((c) => [
    badge(c.status),
    `<code>${esc(c.id)}</code><br><span class="muted">${esc(c.description)}</span>`,
    `<code>${esc(c.clause)}</code>`,
    esc(c.severity ?? ''),
    figureCell(duration(c.duration_ms)),
  ]);
  const categoryRows = r.categories.map((c) => [
    badge(c.status),
    esc(c.id),
    figureCell(String(c.counts.pass)),
    figureCell(String(c.counts.fail)),
    figureCell(String(c.counts.skip)),
    figureCell(String(c.counts.error)),
  ]);
  const problems = groups.reduce((n, g) => n + g.cases.length, 0);
  const skipped = r.cases.filter((c) => c.status === 'skip');
  const summary = `${esc(v.implementation.name)} ${esc(v.implementation.version)}: ${s.total} cases, ${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} could not judge; ${s.blocking} block qualification.${r.selection.complete ? '' : '<div class="partial">Partial run (a selection of cases, or overridden features): not a certification.</div>'}`;
  return `${pageStart({ title: `fleetproof conformance: ${v.implementation.name} ${r.verdict}`, heading: 'fleetproof conformance', verdict: r.verdict, summary, identity: conformanceIdentity(r) })}
<h2>Run</h2>${facts(runFacts)}
<details><summary>The target's GET /version</summary>${versionTable(v)}</details>
<details><summary>The configuration as recorded</summary><pre>${esc(JSON.stringify(r.config, null, 2))}</pre></details>
<h2>Failures and errors (${problems}${groups.length ? `, ${groups.length} cause${groups.length === 1 ? '' : 's'}` : ''})</h2>${groups.length ? groups.map((g, i) => group(r, g, i)).join('\n') : '<p>None.</p>'}
${
  skipped.length
    ? `<h2>Skipped (${skipped.length}, never blocking)</h2>${table(
        ['case', 'clause', 'why'],
        skipped.map((c) => [`<code>${esc(c.id)}</code>`, `<code>${esc(c.clause)}</code>`, esc(c.message ?? '')]),
      )}`
    : ''
}
<h2>Clauses by section</h2>${coverageChart(r.clauses)}
<details><summary>Every clause with its cases</summary>${table(['status', 'clause', 'keyword', 'section', 'cases'], clauseRows)}</details>
<h2>Categories</h2>${table(['status', 'category', 'pass', 'fail', 'skip', 'could not judge'], categoryRows)}
<h2>All cases</h2><details><summary>${r.cases.length} cases</summary>${table(['status', 'case', 'clause', 'severity', 'time'], caseRows)}</details>
${r.retirement.failures.length ? `<h2>Retirement problems</h2><ul>${r.retirement.failures.map((f) => `<li>${esc(f.kind)} <code>${esc(f.id)}</code>: ${esc(f.message)}</li>`).join('')}</ul>` : ''}
${pageEnd}`;
}
