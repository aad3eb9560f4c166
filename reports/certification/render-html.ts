// The certification report as one self-contained page: inline CSS and
// charts, no scripts, nothing fetched, readable on a phone and on a desktop.
// Verdict and reasons first, with what produced the run and the command that
// reruns it; then the stages, every failure with what reproduces it, per
// clause what covered it, the faults, the scale qualification and the
// environment.
import type { CertificationResult, ClauseCoverage, Failure, StageRecord } from '../schemas/certification-result.ts';
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import type { LoadReport } from '../../load/runner/load-report.ts';
import { coverageChart } from '../charts/coverage-chart.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import { badge, facts, fileLink, pageEnd, pageStart, table, VERDICT_WORDS, loadVerdictKey, type RunIdentity } from '../look.ts';
import { duration, figureHtml, measured } from '../figures.ts';
import { loadSections } from '../load/render-html.ts';
import { claims } from '../load/claims.ts';
import { versionTable } from '../version-table.ts';
import { failureHtml } from '../conformance/failure-html.ts';
import type { FaultsDocument } from '../schemas/faults-result.ts';
import { faultBandsDetails, faultsTimeline } from '../charts/faults-timeline.ts';

/** The page each stage writes beside its result document. */
const STAGE_PAGES: Partial<Record<StageRecord['name'], string>> = {
  conformance: 'conformance/report.html',
  properties: 'properties/report.html',
  load: 'load/report.html',
};

function stageRow(s: StageRecord): string[] {
  const figures = Object.entries(s.figures)
    .map(([k, v]) => figureHtml(k, v))
    .join('<br>');
  const reasons = s.reasons.length ? `<br>${s.reasons.map((x) => `<span class="bad">${esc(x)}</span>`).join('<br>')}` : '';
  const page = STAGE_PAGES[s.name];
  const files = s.result_file
    ? [fileLink(s.result_file), ...(page ? [fileLink(page)] : [])].join('<br>')
    : '<span class="muted">none</span>';
  return [
    esc(s.name),
    `${badge(s.status)}${reasons}`,
    `<span class="nowrap">${duration(s.duration_ms)}</span>`,
    figures || '<span class="muted">none</span>',
    files,
  ];
}

function failureBlock(f: Failure, conformance: ConformanceResult | null): string {
  const c = f.stage === 'conformance' ? conformance?.cases.find((x) => x.id === f.subject) : undefined;
  if (c && conformance) return failureHtml(conformance, c);
  const clause = f.clause ? ` — clause <a href="#clause-${esc(f.clause)}">[${esc(f.clause)}]</a>` : '';
  const quote = f.clause_text ? `<blockquote class="clause">${esc(f.clause_text)}</blockquote>` : '';
  return `<div><h3>${badge('fail')} ${esc(f.stage)}: <code>${esc(f.subject)}</code>${clause}</h3>${quote}<p>${esc(f.message)}</p><p class="muted">To reproduce:</p><pre>${esc(f.reproduce)}</pre></div>`;
}

/** Every skip with its reason: skips never block the verdict, but a reader sees what was not judged and why. */
function skipsBlock(r: CertificationResult): string {
  const rows = r.stages.flatMap((s) =>
    (s.skips ?? []).map((k) => [esc(s.name), `<code>${esc(k.subject)}</code>`, `<code>${esc(k.clause)}</code>`, esc(k.reason)]),
  );
  return rows.length ? `<h2>Skipped (${rows.length}, never blocking)</h2>${table(['stage', 'subject', 'clause', 'why'], rows)}` : '';
}

/** Failures of one cause together, largest group first: the first open, the rest collapsed. */
function failureGroups(failures: Failure[], conformance: ConformanceResult | null): string {
  const groups = new Map<string, Failure[]>();
  for (const f of failures) {
    const key = `${f.stage}: ${f.cause ?? f.subject}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([cause, [first, ...rest]], i) => {
      const others = rest.length
        ? `<details><summary>${rest.length} more with this cause</summary>${rest.map((f) => `<details><summary><code>${esc(f.subject)}</code></summary>${failureBlock(f, conformance)}</details>`).join('')}</details>`
        : '';
      return `<div class="group"><details${i < 3 ? ' open' : ''}><summary><strong>${rest.length + 1}</strong> × <code>${esc(cause)}</code></summary>${failureBlock(first!, conformance)}${others}</details></div>`;
    })
    .join('');
}

function clauseRow(c: ClauseCoverage): string[] {
  const cases = c.cases.map((x) => `${badge(x.status)} <code>${esc(x.id)}</code>`).join('<br>');
  const properties = c.properties.map((x) => `${badge(x.status)} ${esc(x.suite)}`).join('<br>');
  return [
    `<code id="clause-${esc(c.id)}">${esc(c.id)}</code>`,
    esc(c.keyword),
    esc(c.section),
    badge(c.status),
    cases || '<span class="muted">none</span>',
    properties || '<span class="muted">none</span>',
  ];
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
  const kinds = Object.entries(f.by_fault)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `<p>${f.faults} fault(s) (${esc(kinds || 'none')}); the registry was ready again within ${duration(f.recovery_ms_max)} of a heal (median ${duration(f.recovery_ms_median)}). The proxy forwarded ${f.forwarded} request(s), reset ${f.reset_before_forward} before forwarding (failed: the registry never saw them) and lost ${f.lost_after_forward} response(s) after the registry acted (indeterminate: read back to decide). Schedule: <code>${esc(doc.replay)}</code>.</p>
${doc.error ? `<p class="bad">${esc(doc.error)}</p>` : ''}
${sweepParagraph(doc)}
${faultsTimeline(doc)}
${faultBandsDetails(doc.bands)}`;
}

function scaleSection(load: LoadReport | null): string {
  if (!load) return '<p class="muted">The load stage did not produce a report.</p>';
  const route = load.thresholds.length;
  const said = claims(load);
  return `<p>Profile <code>${esc(load.profile)}</code> on ${esc(load.environment.engine.name)} ${esc(load.environment.engine.version)}: <b>${VERDICT_WORDS[loadVerdictKey(load.verdict)]}</b>, ${route} threshold(s), ${load.phases.length} phase(s), ${load.routes_seen} routes, audit ${load.audit ? (load.audit.ok ? 'clean' : 'with violations') : 'not run'}. Its own page, a datasheet that stands alone: ${fileLink('load/report.html')}.</p>
<div class="claims"><p><b>What the load result claims.</b> ${esc(said.claims)}</p><p><b>What it does not.</b> ${esc(said.doesNotClaim)}</p></div>
${loadSections(load, 3)}`;
}

/** What produced a certification, for the page's head. */
export function certificationIdentity(r: CertificationResult): RunIdentity {
  return {
    run: r.run_id,
    harness: `${r.harness.name} ${r.harness.version}, commit ${r.harness.commit}`,
    contract: r.contract_revision ?? null,
    caseSet: r.case_set ? { ...r.case_set, of: 'cases, property suites, audit invariants and the load profile' } : null,
    rerun: r.rerun ?? null,
  };
}

export function renderCertificationHtml(
  r: CertificationResult,
  load: LoadReport | null,
  faults: FaultsDocument | null = null,
  conformance: ConformanceResult | null = null,
): string {
  const impl = r.target.version?.implementation;
  const target = `<code>${esc(r.target.url || 'no target')}</code>${impl ? ` (${esc(impl.name)} ${esc(impl.version)})` : ''}${r.target.embedded ? `, the embedded reference on the ${esc(r.target.store ?? '')} store` : ''}`;
  const required = r.clauses.filter((c) => c.severity === 'required');
  const uncovered = required.filter((c) => c.status === 'unknown').map((c) => c.id);
  const e = r.environment;
  const summary = `${r.reasons.length ? `<ul>${r.reasons.map((x) => `<li class="bad">${esc(x)}</li>`).join('')}</ul>` : 'Every conformance case passed (or was skipped for the reason listed), every property held, and the load profile met every threshold with a clean audit.'}
<div>Target ${target}; profile <code>${esc(r.profile)}</code>; ${esc(r.started_at)} → ${esc(r.finished_at)}.</div>`;
  const kept = r.kept_data
    ? `<p class="partial">The conformance stage kept its records on the target (<code>--keep-data</code>), so each failure's curl replays against them. Retire them when done:</p><pre>${esc(r.kept_data.retire)}</pre>`
    : '';
  return `${pageStart({ title: `fleetproof certification: ${r.verdict}`, heading: 'fleetproof certification', verdict: r.verdict, summary, grounds: (r.grounds ?? []).map((g) => `<p>${esc(g)}</p>`).join(''), identity: certificationIdentity(r) })}
${kept}
<h2>Stages</h2>
${table(['stage', 'status', 'time', 'figures', 'documents'], r.stages.map(stageRow))}
<h2>Failures (${r.failures.length})</h2>
${r.failures.length ? failureGroups(r.failures, conformance) : '<p>None.</p>'}
${skipsBlock(r)}
<h2>Clauses</h2>
<p>${required.length} required clauses; ${uncovered.length ? `${uncovered.length} had no check that ran in this certification: ${uncovered.map((id) => `<a href="#clause-${esc(id)}"><code>${esc(id)}</code></a>`).join(', ')} (see the conformance guide for clauses a client cannot provoke).` : 'every one was checked.'}</p>
${coverageChart(r.clauses)}
<details${r.failures.length ? ' open' : ''}><summary>Every clause with the cases and properties that cover it</summary>
${table(['clause', 'keyword', 'section', 'status', 'conformance cases', 'properties and audit'], r.clauses.map(clauseRow))}
</details>
<h2>Faults</h2>
${faults ? faultsSection(faults) : '<p class="muted">The faults stage did not produce a report.</p>'}
<h2>Scale qualification</h2>
${scaleSection(load)}
<h2>Environment</h2>
${facts([
  ['harness', `${esc(r.harness.name)} ${esc(r.harness.version)}, commit <code>${esc(r.harness.commit)}</code>`],
  [
    'machine',
    `${e.cpus.count} cores × ${esc(e.cpus.model)}, ${measured(e.memory_bytes / 2 ** 30)} GiB, ${esc(e.platform)} ${esc(e.arch)}, Node ${esc(e.node)}`,
  ],
  ['PostgreSQL', esc(e.postgres ?? 'not used by the harness')],
])}
<p>The target's <code>GET /version</code>:</p>
${versionTable(r.target.version)}
<p class="muted">The files of this run are signed in <code>bundle.json</code>; check them with <code>npx fleetproof verify bundle.json --pubkey KEY</code>.</p>
${pageEnd}`;
}
