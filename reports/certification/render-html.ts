// The certification report as one self-contained page: inline CSS, inline
// SVG, no scripts, nothing fetched, readable on a phone and on a desktop.
// Verdict and reasons first; then the stages, every failure with what
// reproduces it, per clause what covered it, the load phases with their
// charts and margins, and the environment.
import type { CertificationResult, ClauseCoverage, Failure, StageRecord } from '../schemas/certification-result.ts';
import { htmlEscape as esc } from '../conformance/render-html.ts';
import type { LoadReport } from '../../load/runner/load-report.ts';
import { loadSections } from '../load/render-html.ts';
import type { FaultsDocument } from '../schemas/faults-result.ts';
import { faultsTimeline } from './faults-timeline.ts';

const CSS = `
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#1b1f24;background:#fff}
h1{font-size:24px;margin:0 0 8px}h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:16px;margin:16px 0 6px}
.verdict{padding:14px 18px;border-radius:8px;margin-bottom:12px;font-size:20px;font-weight:600}
.qualified{background:#dafbe1;border:1px solid #1a7f37}.non-conformant{background:#ffebe9;border:1px solid #cf222e}.could-not-run{background:#fff8c5;border:1px solid #9a6700}
table{border-collapse:collapse;font-size:14px;display:block;overflow-x:auto;max-width:100%;margin:6px 0 16px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eaeef2;vertical-align:top}th{background:#f6f8fa}
.s{font-weight:600;text-transform:uppercase;font-size:11px;padding:1px 6px;border-radius:4px;white-space:nowrap}
.pass,.passed{background:#dafbe1;color:#116329}.fail,.failed{background:#ffebe9;color:#a40e26}.error,.could-not-run{background:#fff1e5;color:#953800}.skip,.skipped,.unknown{background:#eaeef2;color:#57606a}
.ok{color:#1a7f37}.bad{color:#cf222e}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:10px;overflow-x:auto;font-size:12.5px;white-space:pre-wrap;word-break:break-word;max-width:100%}
code{font-size:13px;word-break:break-word}svg{max-width:100%;height:auto}.muted{color:#57606a}
details summary{cursor:pointer;margin:4px 0}
@media (max-width:600px){body{padding:10px;font-size:14px}.verdict{font-size:17px}th,td{padding:3px 5px}}
`;

const badge = (status: string) => `<span class="s ${esc(status)}">${esc(status)}</span>`;

function stageRow(s: StageRecord): string {
  const figures = Object.entries(s.figures)
    .map(([k, v]) => `${esc(k)} ${esc(String(v))}`)
    .join(', ');
  return `<tr><td>${esc(s.name)}</td><td>${badge(s.status)}</td><td>${(s.duration_ms / 1000).toFixed(1)} s</td><td>${figures}</td><td>${s.reasons.map(esc).join('<br>')}</td><td>${s.result_file ? `<code>${esc(s.result_file)}</code>` : ''}</td></tr>`;
}

function failureBlock(f: Failure): string {
  const clause = f.clause ? ` — clause <a href="#clause-${esc(f.clause)}">[${esc(f.clause)}]</a>` : '';
  return `<div><h3>${badge('fail')} ${esc(f.stage)}: <code>${esc(f.subject)}</code>${clause}</h3><p>${esc(f.message)}</p><p class="muted">To reproduce:</p><pre>${esc(f.reproduce)}</pre></div>`;
}

function clauseRow(c: ClauseCoverage): string {
  const cases = c.cases.map((x) => `${badge(x.status)} <code>${esc(x.id)}</code>`).join('<br>');
  const properties = c.properties.map((x) => `${badge(x.status)} ${esc(x.suite)}`).join('<br>');
  return `<tr id="clause-${esc(c.id)}"><td><code>${esc(c.id)}</code></td><td>${esc(c.keyword)}</td><td>${badge(c.status)}</td><td>${cases || '<span class="muted">none</span>'}</td><td>${properties}</td></tr>`;
}

function faultsSection(doc: FaultsDocument): string {
  const f = doc.figures;
  const bands = doc.bands.map((b) => `<tr><td>${esc(b.fault)}</td><td>${b.start}–${b.end} ms</td><td>${b.recovery_ms ?? '-'} ms</td><td>${esc(b.error ?? '')}</td></tr>`).join('');
  return `<p>${f.faults} fault(s) (${esc(Object.entries(f.by_fault).map(([k, n]) => `${k} ${n}`).join(', ') || 'none')}); the registry was ready again within ${f.recovery_ms_max ?? '-'} ms of a heal (median ${f.recovery_ms_median ?? '-'} ms). The proxy forwarded ${f.forwarded} request(s), reset ${f.reset_before_forward} before forwarding and lost ${f.lost_after_forward} response(s) after the registry acted; those operations are indeterminate in the histories. Schedule: <code>${esc(doc.replay)}</code>.</p>
${doc.error ? `<p class="bad">${esc(doc.error)}</p>` : ''}
${faultsTimeline(doc)}
<details><summary>Every fault</summary><table><tr><th>fault</th><th>when</th><th>ready after heal</th><th>error</th></tr>${bands}</table></details>`;
}

export function renderCertificationHtml(r: CertificationResult, load: LoadReport | null, faults: FaultsDocument | null = null): string {
  const impl = r.target.version?.implementation;
  const target = `${esc(r.target.url)}${impl ? ` (${esc(impl.name)} ${esc(impl.version)})` : ''}${r.target.embedded ? `, the embedded reference on the ${esc(r.target.store ?? '')} store` : ''}`;
  const required = r.clauses.filter((c) => c.severity === 'required');
  const uncovered = required.filter((c) => c.status === 'unknown').map((c) => c.id);
  const e = r.environment;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>fleetproof certification: ${esc(r.verdict)}</title><style>${CSS}</style></head><body>
<h1>fleetproof certification</h1>
<div class="verdict ${esc(r.verdict)}">${esc(r.verdict.toUpperCase())}</div>
${r.reasons.length ? `<ul>${r.reasons.map((x) => `<li class="bad">${esc(x)}</li>`).join('')}</ul>` : '<p>Every conformance case passed, every property held, and the load profile met every threshold with a clean audit.</p>'}
<p>Target ${target}; contract <code>${esc(r.contract)}</code>; profile <code>${esc(r.profile)}</code>; run <code>${esc(r.run_id)}</code>, ${esc(r.started_at)} → ${esc(r.finished_at)}.</p>
<h2>Stages</h2>
<table><tr><th>stage</th><th>status</th><th>time</th><th>figures</th><th>reasons</th><th>result</th></tr>${r.stages.map(stageRow).join('')}</table>
<h2>Failures (${r.failures.length})</h2>
${r.failures.length ? r.failures.map(failureBlock).join('') : '<p>None.</p>'}
<h2>Clauses</h2>
<p>${required.length} required clauses; ${uncovered.length ? `${uncovered.length} had no check that ran in this certification: ${uncovered.map((id) => `<a href="#clause-${esc(id)}"><code>${esc(id)}</code></a>`).join(', ')} (see the conformance guide for clauses a client cannot provoke).` : 'every one was checked.'}</p>
<details${r.failures.length ? ' open' : ''}><summary>Every clause with the cases and properties that cover it</summary>
<table><tr><th>clause</th><th>keyword</th><th>status</th><th>conformance cases</th><th>properties and audit</th></tr>${r.clauses.map(clauseRow).join('')}</table>
</details>
<h2>Faults</h2>
${faults ? faultsSection(faults) : '<p class="muted">The faults stage did not produce a report.</p>'}
<h2>Scale qualification</h2>
${load ? loadSections(load) : '<p class="muted">The load stage did not produce a report.</p>'}
<h2>Environment</h2>
<table>
<tr><td>harness</td><td>${esc(r.harness.name)} ${esc(r.harness.version)}, commit <code>${esc(r.harness.commit)}</code></td></tr>
<tr><td>target /version</td><td><code>${esc(JSON.stringify(r.target.version))}</code></td></tr>
<tr><td>machine</td><td>${e.cpus.count} × ${esc(e.cpus.model)}, ${(e.memory_bytes / 2 ** 30).toFixed(1)} GiB, ${esc(e.platform)} ${esc(e.arch)}, Node ${esc(e.node)}</td></tr>
<tr><td>PostgreSQL</td><td>${esc(e.postgres ?? 'not used by the harness')}</td></tr>
</table>
<p class="muted">The files of this run are signed in <code>bundle.json</code>; check them with <code>npx fleetproof verify bundle.json --pubkey KEY</code>.</p>
</body></html>
`;
}
