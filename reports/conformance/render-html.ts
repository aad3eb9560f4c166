// The HTML report: one self-contained page (inline CSS, no scripts, nothing
// fetched from the network), readable offline. Verdict first, then the run's
// facts, failures grouped by cause with what reproduces them, clause
// coverage by section, the clause table and every case.
import type { CaseResult, ConformanceResult } from '../../conformance/runner/result.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import { badge, pageEnd, pageStart, scrollTable } from '../look.ts';
import { coverageChart } from '../charts/coverage-chart.ts';
import { exchangeText } from './exchange-text.ts';
import { groupFailures, type FailureGroup } from './failure-groups.ts';
import { reproduction } from './reproduce.ts';

function failure(r: ConformanceResult, c: CaseResult): string {
  return `<div class="case"><h3>${badge(c.status)} <code>${esc(c.id)}</code></h3>
<p>Clause <a href="#clause-${esc(c.failure_clause ?? c.clause)}">[${esc(c.failure_clause ?? c.clause)}]</a> (${esc(c.severity ?? 'unknown')}). ${esc(c.description)}</p>
<p><strong>${esc(c.message ?? '')}</strong></p>
${c.exchange ? `<pre>${esc(exchangeText(c.exchange))}</pre>` : '<p class="muted">No exchange recorded.</p>'}
<p class="muted">To reproduce:</p><pre>${esc(reproduction(r, c))}</pre></div>`;
}

function group(r: ConformanceResult, g: FailureGroup, index: number): string {
  const [first, ...rest] = g.cases;
  const others = rest.length
    ? `<details><summary>${rest.length} more case(s) with this cause</summary>${rest.map((c) => `<details><summary>${badge(c.status)} <code>${esc(c.id)}</code></summary>${failure(r, c)}</details>`).join('')}</details>`
    : '';
  return `<div class="group"><details${index < 3 ? ' open' : ''}><summary><strong>${g.cases.length} case(s)</strong>: <code>${esc(g.cause)}</code></summary>${failure(r, first!)}${others}</details></div>`;
}

export function renderHtml(r: ConformanceResult): string {
  const s = r.summary;
  const v = r.target.version;
  const groups = groupFailures(r.cases);
  const facts: Array<[string, string]> = [
    ['Implementation', `${v.implementation.name} ${v.implementation.version}`],
    ['Target', r.target.url],
    ['Contract', r.contract.version],
    ['Run', r.run_id],
    [
      'Harness',
      `${r.harness.name} ${r.harness.version}, commit ${r.harness.commit}${r.harness.dirty ? ' (modified)' : ''}, Node ${r.harness.node}`,
    ],
    [
      'Features',
      `declared: ${r.features.declared.join(', ') || '(none)'}; tested: ${r.features.effective.join(', ') || '(none)'}${r.features.overridden ? ' (overridden)' : ''}`,
    ],
    ['Started', `${r.timings.started_at}, ${(r.timings.duration_ms / 1000).toFixed(1)} s`],
    ['Server clock', `offset ${r.target.clock.offset_ms} ms (${r.target.clock.source})`],
    [
      'Limits',
      Object.entries(v.limits)
        .map(([k, n]) => `${k} ${n}`)
        .join(', '),
    ],
    ['Retirement', `${r.retirement.status}${r.retirement.failures.length ? `, ${r.retirement.failures.length} problems` : ''}`],
    ['Configuration', JSON.stringify(r.config)],
  ];
  const clauseRows = r.clauses
    .map((c) => {
      const cases = c.exempt
        ? `<span class="muted">exempt: ${esc(c.exempt)}</span>`
        : c.cases.length
          ? c.cases.map((id) => `<code>${esc(id)}</code>`).join('<br>')
          : '<span class="muted">no case run</span>';
      const by = c.failed_by.length
        ? `<br><span class="muted">broken by</span> ${c.failed_by.map((id) => `<code>${esc(id)}</code>`).join(', ')}`
        : '';
      return `<tr id="clause-${esc(c.id)}"><td>${badge(c.status)}</td><td><code>[${esc(c.id)}]</code></td><td>${esc(c.keyword)}</td><td>${esc(c.section)}</td><td>${cases}${by}</td></tr>`;
    })
    .join('\n');
  const caseRows = r.cases
    .map(
      (c) =>
        `<tr><td>${badge(c.status)}</td><td><code>${esc(c.id)}</code><br><span class="muted">${esc(c.description)}</span></td><td><code>${esc(c.clause)}</code></td><td>${esc(c.severity ?? '')}</td><td>${c.duration_ms} ms</td></tr>`,
    )
    .join('\n');
  const categoryRows = r.categories
    .map(
      (c) =>
        `<tr><td>${badge(c.status)}</td><td>${esc(c.id)}</td><td>${c.counts.pass}</td><td>${c.counts.fail}</td><td>${c.counts.skip}</td><td>${c.counts.error}</td></tr>`,
    )
    .join('\n');
  const problems = groups.reduce((n, g) => n + g.cases.length, 0);
  const skipped = r.cases.filter((c) => c.status === 'skip');
  const summary = `${esc(v.implementation.name)} ${esc(v.implementation.version)} against ${esc(r.contract.version)}: ${s.total} cases, ${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} error; ${s.blocking} block qualification.${r.selection.complete ? '' : '<div class="partial">Partial run (a selection of cases, or overridden features): not a certification.</div>'}`;
  return `${pageStart({ title: `fleetproof conformance: ${v.implementation.name} ${r.verdict}`, heading: 'fleetproof conformance', verdict: r.verdict, summary })}
<h2>Run</h2>${scrollTable(facts.map(([k, val]) => `<tr><th>${esc(k)}</th><td>${esc(val)}</td></tr>`).join(''))}
<h2>Failures and errors (${problems}${groups.length ? `, ${groups.length} cause${groups.length === 1 ? '' : 's'}` : ''})</h2>${groups.length ? groups.map((g, i) => group(r, g, i)).join('\n') : '<p>None.</p>'}
${skipped.length ? `<h2>Skipped (${skipped.length}, never blocking)</h2>${scrollTable(`<tr><th>Case</th><th>Clause</th><th>Reason</th></tr>${skipped.map((c) => `<tr><td><code>${esc(c.id)}</code></td><td><code>${esc(c.clause)}</code></td><td>${esc(c.message ?? '')}</td></tr>`).join('')}`)}` : ''}
<h2>Clauses by section</h2>${coverageChart(r.clauses)}
<details><summary>Every clause with its cases</summary>${scrollTable(`<tr><th>Status</th><th>Clause</th><th>Keyword</th><th>Section</th><th>Cases</th></tr>${clauseRows}`)}</details>
<h2>Categories</h2>${scrollTable(`<tr><th>Status</th><th>Category</th><th>Pass</th><th>Fail</th><th>Skip</th><th>Error</th></tr>${categoryRows}`)}
<h2>All cases</h2><details><summary>${r.cases.length} cases</summary>${scrollTable(`<tr><th>Status</th><th>Case</th><th>Clause</th><th>Severity</th><th>Time</th></tr>${caseRows}`)}</details>
${r.retirement.failures.length ? `<h2>Retirement problems</h2><ul>${r.retirement.failures.map((f) => `<li>${esc(f.kind)} <code>${esc(f.id)}</code>: ${esc(f.message)}</li>`).join('')}</ul>` : ''}
${pageEnd}`;
}
