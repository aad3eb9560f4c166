// The HTML report: one self-contained page (inline CSS, no scripts, nothing
// fetched from the network), readable offline. Verdict first, then the run's
// facts, failures with their exchanges, the clause table and every case.
import type { CaseResult, ConformanceResult } from '../../conformance/runner/result.ts';
import { exchangeText } from './exchange-text.ts';

export function htmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const CSS = `
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0 auto;max-width:1100px;padding:24px;color:#1b1f24;background:#fff}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.verdict{padding:16px 20px;border-radius:8px;margin-bottom:16px}.qualified{background:#dafbe1;border:1px solid #1a7f37}.non-conformant{background:#ffebe9;border:1px solid #cf222e}.could-not-judge{background:#fff8c5;border:1px solid #9a6700}
.partial{font-weight:600;color:#9a6700}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eaeef2;vertical-align:top}th{background:#f6f8fa}
.s{font-weight:600;text-transform:uppercase;font-size:12px;padding:1px 6px;border-radius:4px;white-space:nowrap}
.pass{background:#dafbe1;color:#116329}.fail{background:#ffebe9;color:#a40e26}.error{background:#fff1e5;color:#953800}.skip,.unknown{background:#eaeef2;color:#57606a}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:10px;overflow:auto;font-size:12.5px;white-space:pre-wrap;word-break:break-word}
code{font-size:13px}.case{margin:12px 0 20px}.muted{color:#57606a}details summary{cursor:pointer}
`;

const badge = (status: string) => `<span class="s ${htmlEscape(status)}">${htmlEscape(status)}</span>`;

function failure(c: CaseResult): string {
  return `<div class="case"><h3>${badge(c.status)} <code>${htmlEscape(c.id)}</code></h3>
<p>Clause <a href="#clause-${htmlEscape(c.failure_clause ?? c.clause)}">[${htmlEscape(c.failure_clause ?? c.clause)}]</a> (${htmlEscape(c.severity ?? 'unknown')}). ${htmlEscape(c.description)}</p>
<p><strong>${htmlEscape(c.message ?? '')}</strong></p>
${c.exchange ? `<pre>${htmlEscape(exchangeText(c.exchange))}</pre>` : '<p class="muted">No exchange recorded.</p>'}</div>`;
}

export function renderHtml(r: ConformanceResult): string {
  const s = r.summary;
  const v = r.target.version;
  const problems = r.cases.filter((c) => c.status === 'fail' || c.status === 'error');
  const facts: Array<[string, string]> = [
    ['Implementation', `${v.implementation.name} ${v.implementation.version}`],
    ['Target', r.target.url],
    ['Contract', r.contract.version],
    ['Run', r.run_id],
    ['Harness', `${r.harness.name} ${r.harness.version}, commit ${r.harness.commit}${r.harness.dirty ? ' (modified)' : ''}, Node ${r.harness.node}`],
    ['Features', `declared: ${r.features.declared.join(', ') || '(none)'}; tested: ${r.features.effective.join(', ') || '(none)'}${r.features.overridden ? ' (overridden)' : ''}`],
    ['Started', `${r.timings.started_at}, ${(r.timings.duration_ms / 1000).toFixed(1)} s`],
    ['Server clock', `offset ${r.target.clock.offset_ms} ms (${r.target.clock.source})`],
    ['Limits', Object.entries(v.limits).map(([k, n]) => `${k} ${n}`).join(', ')],
    ['Retirement', `${r.retirement.status}${r.retirement.failures.length ? `, ${r.retirement.failures.length} problems` : ''}`],
    ['Configuration', JSON.stringify(r.config)],
  ];
  const clauseRows = r.clauses
    .map((c) => {
      const cases = c.exempt ? `<span class="muted">exempt: ${htmlEscape(c.exempt)}</span>` : c.cases.length ? c.cases.map((id) => `<code>${htmlEscape(id)}</code>`).join('<br>') : '<span class="muted">no case run</span>';
      const by = c.failed_by.length ? `<br><span class="muted">broken by</span> ${c.failed_by.map((id) => `<code>${htmlEscape(id)}</code>`).join(', ')}` : '';
      return `<tr id="clause-${htmlEscape(c.id)}"><td>${badge(c.status)}</td><td><code>[${htmlEscape(c.id)}]</code></td><td>${htmlEscape(c.keyword)}</td><td>${htmlEscape(c.section)}</td><td>${cases}${by}</td></tr>`;
    })
    .join('\n');
  const caseRows = r.cases
    .map((c) => `<tr><td>${badge(c.status)}</td><td><code>${htmlEscape(c.id)}</code><br><span class="muted">${htmlEscape(c.description)}</span></td><td><code>${htmlEscape(c.clause)}</code></td><td>${htmlEscape(c.severity ?? '')}</td><td>${c.duration_ms} ms</td></tr>`)
    .join('\n');
  const skipped = r.cases.filter((c) => c.status === 'skip');
  const categoryRows = r.categories.map((c) => `<tr><td>${badge(c.status)}</td><td>${htmlEscape(c.id)}</td><td>${c.counts.pass}</td><td>${c.counts.fail}</td><td>${c.counts.skip}</td><td>${c.counts.error}</td></tr>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>fleetproof conformance: ${htmlEscape(v.implementation.name)} ${r.verdict}</title><style>${CSS}</style></head>
<body>
<div class="verdict ${r.verdict}"><h1>${r.verdict === 'qualified' ? 'Qualified' : r.verdict === 'non-conformant' ? 'Non-conformant' : 'Could not judge'}</h1>
<div>${htmlEscape(v.implementation.name)} ${htmlEscape(v.implementation.version)} against ${htmlEscape(r.contract.version)}: ${s.total} cases, ${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} error; ${s.blocking} block qualification.</div>
${r.selection.complete ? '' : '<div class="partial">Partial run (a selection of cases, or overridden features): not a certification.</div>'}</div>
<h2>Run</h2><table>${facts.map(([k, val]) => `<tr><th>${htmlEscape(k)}</th><td>${htmlEscape(val)}</td></tr>`).join('')}</table>
<h2>Failures and errors (${problems.length})</h2>${problems.length ? problems.map(failure).join('\n') : '<p>None.</p>'}
${skipped.length ? `<h2>Skipped (${skipped.length})</h2><table><tr><th>Case</th><th>Clause</th><th>Reason</th></tr>${skipped.map((c) => `<tr><td><code>${htmlEscape(c.id)}</code></td><td><code>${htmlEscape(c.clause)}</code></td><td>${htmlEscape(c.message ?? '')}</td></tr>`).join('')}</table>` : ''}
<h2>Clauses</h2><table><tr><th>Status</th><th>Clause</th><th>Keyword</th><th>Section</th><th>Cases</th></tr>${clauseRows}</table>
<h2>Categories</h2><table><tr><th>Status</th><th>Category</th><th>Pass</th><th>Fail</th><th>Skip</th><th>Error</th></tr>${categoryRows}</table>
<h2>All cases</h2><details><summary>${r.cases.length} cases</summary><table><tr><th>Status</th><th>Case</th><th>Clause</th><th>Severity</th><th>Time</th></tr>${caseRows}</table></details>
${r.retirement.failures.length ? `<h2>Retirement problems</h2><ul>${r.retirement.failures.map((f) => `<li>${htmlEscape(f.kind)} <code>${htmlEscape(f.id)}</code>: ${htmlEscape(f.message)}</li>`).join('')}</ul>` : ''}
</body></html>
`;
}
