// The certification report as one self-contained page: inline CSS, inline
// SVG, no scripts, nothing fetched, readable on a phone and on a desktop.
// Verdict and reasons first; then the stages, every failure with what
// reproduces it, per clause what covered it, the load phases with their
// charts and margins, and the environment.
import type { CertificationResult, ClauseCoverage, Failure, StageRecord } from '../schemas/certification-result.ts';
import type { LoadReport } from '../../load/runner/load-report.ts';
import { coverageChart } from '../charts/coverage-chart.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import { badge, pageEnd, pageStart, scrollTable } from '../look.ts';
import { loadSections } from '../load/render-html.ts';
import type { FaultsDocument } from '../schemas/faults-result.ts';
import { faultBandsDetails, faultsTimeline } from '../charts/faults-timeline.ts';

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

/** Every skip with its reason: skips never block the verdict, but a reader sees what was not judged and why. */
function skipsBlock(r: CertificationResult): string {
  const rows = r.stages.flatMap((s) =>
    (s.skips ?? []).map(
      (k) =>
        `<tr><td>${esc(s.name)}</td><td><code>${esc(k.subject)}</code></td><td><code>${esc(k.clause)}</code></td><td>${esc(k.reason)}</td></tr>`,
    ),
  );
  return rows.length
    ? `<h2>Skipped (${rows.length}, never blocking)</h2>${scrollTable(`<tr><th>Stage</th><th>Subject</th><th>Clause</th><th>Reason</th></tr>${rows.join('')}`)}`
    : '';
}

/** Failures of one cause together, largest group first: the first open, the rest collapsed. */
function failureGroups(failures: Failure[]): string {
  const groups = new Map<string, Failure[]>();
  for (const f of failures) {
    const key = `${f.stage}: ${f.cause ?? f.subject}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([cause, [first, ...rest]], i) => {
      const others = rest.length
        ? `<details><summary>${rest.length} more with this cause</summary>${rest.map((f) => `<details><summary><code>${esc(f.subject)}</code></summary>${failureBlock(f)}</details>`).join('')}</details>`
        : '';
      return `<div class="group"><details${i < 3 ? ' open' : ''}><summary><strong>${rest.length + 1}</strong> × <code>${esc(cause)}</code></summary>${failureBlock(first!)}${others}</details></div>`;
    })
    .join('');
}

function clauseRow(c: ClauseCoverage): string {
  const cases = c.cases.map((x) => `${badge(x.status)} <code>${esc(x.id)}</code>`).join('<br>');
  const properties = c.properties.map((x) => `${badge(x.status)} ${esc(x.suite)}`).join('<br>');
  return `<tr id="clause-${esc(c.id)}"><td><code>${esc(c.id)}</code></td><td>${esc(c.keyword)}</td><td>${esc(c.section)}</td><td>${badge(c.status)}</td><td>${cases || '<span class="muted">none</span>'}</td><td>${properties}</td></tr>`;
}

/** What the sweep after the faults read back and found. */
function sweepParagraph(doc: FaultsDocument): string {
  const w = doc.sweep;
  if (!w) return '';
  const found =
    w.violations.length === 0
      ? '<p>It found no violation.</p>'
      : `<ul class="bad">${w.violations.map((v) => `<li><pre>${esc(v)}</pre></li>`).join('')}</ul>`;
  return `<p>After the faults, the sweep read back ${w.routes} route(s) of ${w.ops} resolve and settle operation(s): ${w.indeterminate} indeterminate (${w.indeterminate_resolves.took_effect} resolve(s) took effect once, ${w.indeterminate_resolves.no_effect} not at all), ${w.not_forwarded} never forwarded; it settled ${w.settled_by_sweep} route(s) still held.</p>${found}`;
}

function faultsSection(doc: FaultsDocument): string {
  const f = doc.figures;
  return `<p>${f.faults} fault(s) (${esc(
    Object.entries(f.by_fault)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none',
  )}); the registry was ready again within ${f.recovery_ms_max ?? '-'} ms of a heal (median ${f.recovery_ms_median ?? '-'} ms). The proxy forwarded ${f.forwarded} request(s), reset ${f.reset_before_forward} before forwarding (failed: the registry never saw them) and lost ${f.lost_after_forward} response(s) after the registry acted (indeterminate: read back to decide). Schedule: <code>${esc(doc.replay)}</code>.</p>
${doc.error ? `<p class="bad">${esc(doc.error)}</p>` : ''}
${sweepParagraph(doc)}
${faultsTimeline(doc)}
${faultBandsDetails(doc.bands)}`;
}

export function renderCertificationHtml(r: CertificationResult, load: LoadReport | null, faults: FaultsDocument | null = null): string {
  const impl = r.target.version?.implementation;
  const target = `${esc(r.target.url)}${impl ? ` (${esc(impl.name)} ${esc(impl.version)})` : ''}${r.target.embedded ? `, the embedded reference on the ${esc(r.target.store ?? '')} store` : ''}`;
  const required = r.clauses.filter((c) => c.severity === 'required');
  const uncovered = required.filter((c) => c.status === 'unknown').map((c) => c.id);
  const e = r.environment;
  const summary = `${r.reasons.length ? `<ul>${r.reasons.map((x) => `<li class="bad">${esc(x)}</li>`).join('')}</ul>` : 'Every conformance case passed (or was skipped for the reason listed), every property held, and the load profile met every threshold with a clean audit.'}
<div>Target ${target}; contract <code>${esc(r.contract)}</code>; profile <code>${esc(r.profile)}</code>; run <code>${esc(r.run_id)}</code>, ${esc(r.started_at)} → ${esc(r.finished_at)}.</div>`;
  return `${pageStart({ title: `fleetproof certification: ${r.verdict}`, heading: 'fleetproof certification', verdict: r.verdict, summary, grounds: (r.grounds ?? []).map((g) => `<p>${esc(g)}</p>`).join('') })}
<h2>Stages</h2>
${scrollTable(`<tr><th>stage</th><th>status</th><th>time</th><th>figures</th><th>reasons</th><th>result</th></tr>${r.stages.map(stageRow).join('')}`)}
<h2>Failures (${r.failures.length})</h2>
${r.failures.length ? failureGroups(r.failures) : '<p>None.</p>'}
${skipsBlock(r)}
<h2>Clauses</h2>
<p>${required.length} required clauses; ${uncovered.length ? `${uncovered.length} had no check that ran in this certification: ${uncovered.map((id) => `<a href="#clause-${esc(id)}"><code>${esc(id)}</code></a>`).join(', ')} (see the conformance guide for clauses a client cannot provoke).` : 'every one was checked.'}</p>
${coverageChart(r.clauses)}
<details${r.failures.length ? ' open' : ''}><summary>Every clause with the cases and properties that cover it</summary>
${scrollTable(`<tr><th>clause</th><th>keyword</th><th>section</th><th>status</th><th>conformance cases</th><th>properties and audit</th></tr>${r.clauses.map(clauseRow).join('')}`)}
</details>
<h2>Faults</h2>
${faults ? faultsSection(faults) : '<p class="muted">The faults stage did not produce a report.</p>'}
<h2>Scale qualification</h2>
${load ? loadSections(load) : '<p class="muted">The load stage did not produce a report.</p>'}
<h2>Environment</h2>
${scrollTable(`
<tr><td>harness</td><td>${esc(r.harness.name)} ${esc(r.harness.version)}, commit <code>${esc(r.harness.commit)}</code></td></tr>
<tr><td>target /version</td><td><code>${esc(JSON.stringify(r.target.version))}</code></td></tr>
<tr><td>machine</td><td>${e.cpus.count} × ${esc(e.cpus.model)}, ${(e.memory_bytes / 2 ** 30).toFixed(1)} GiB, ${esc(e.platform)} ${esc(e.arch)}, Node ${esc(e.node)}</td></tr>
<tr><td>PostgreSQL</td><td>${esc(e.postgres ?? 'not used by the harness')}</td></tr>`)}
<p class="muted">The files of this run are signed in <code>bundle.json</code>; check them with <code>npx fleetproof verify bundle.json --pubkey KEY</code>.</p>
${pageEnd}`;
}
