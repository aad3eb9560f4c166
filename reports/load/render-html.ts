// The load report as one self-contained HTML page: verdict first, then the
// faults of a run under a nemesis, the thresholds with their margins,
// phases, routes over time, audit, dataset and environment. Charts are inline SVG; nothing is fetched.
import { escapeXml as esc } from '../charts/svg.ts';
import { loadVerdictKey, pageEnd, pageStart, scrollTable } from '../look.ts';
import { latencyChart, overTimeCharts, thresholdChart, throughputChart } from './svg-charts.ts';
import { breakpointHtml } from './render-breakpoint.ts';
import { faultsHtml } from './render-faults.ts';
import { retirementLine } from './retirement-line.ts';
import type { MaybeUnderFaults } from '../../load/runner/judge-under-faults.ts';

const num = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? 'n/a' : n.toFixed(digits));
const mark = (ok: boolean) => (ok ? '<span class="ok">✓</span>' : '<span class="bad">✗</span>');

/** Thresholds, phases, routes over time, audit and dataset: the body shared with the certification page. */
export function loadSections(r: MaybeUnderFaults): string {
  const thresholdRows = r.thresholds
    .map(
      (t) =>
        `<tr><td>${t.not_judged !== undefined ? `<span title="${esc(t.not_judged)}">?</span>` : mark(t.ok)}</td><td>${esc(t.label)}${t.source ? ` <small>(${esc(t.source)})</small>` : ''}</td><td><code>${esc(t.metric)}</code></td><td><code>${esc(t.expression)}</code></td><td>${num(t.value, 2)} ${esc(t.unit)}</td><td>${t.margin === null ? 'n/a' : `${t.margin >= 0 ? '+' : ''}${num(t.margin, 2)} ${esc(t.unit)}${t.margin_pct === null ? '' : ` (${num(t.margin_pct)}%)`}`}</td></tr>`,
    )
    .join('');
  const phaseRows = r.phases
    .map((p) => {
      const l = p.latency_ms ?? {};
      const nr = p.nearest_rank
        .map((x) => `${esc(x.operation)}: p50 ${num(x.p50, 2)}, p95 ${num(x.p95, 2)}, p99 ${num(x.p99, 2)} (n=${x.count})`)
        .join('<br>');
      return `<tr><td>${esc(p.name)}</td><td>${p.status === 'error' ? '!' : mark(p.status === 'pass')} ${p.checks.passes}/${p.checks.passes + p.checks.fails}</td><td>${p.requests}</td><td>${num(p.wall_ms, 0)}</td><td>${num(p.throughput_rps)}</td><td>${num(l['med'], 2)}</td><td>${num(l['p(95)'], 2)}</td><td>${num(l['p(99)'], 2)}</td><td>${num(l['max'], 2)}</td><td>${nr}</td></tr>`;
    })
    .join('');
  const audit = r.audit
    ? `<ul>${r.audit.invariants.map((i) => `<li>${mark(i.ok)} ${esc(i.description)} — ${i.checked} checked, ${i.violations} violations${i.examples.length ? `<ul>${i.examples.map((x) => `<li><code>${esc(x)}</code></li>`).join('')}</ul>` : ''}</li>`).join('')}</ul>${r.audit.errors.map((x) => `<p class="bad">${esc(x)}</p>`).join('')}`
    : '<p class="bad">The audit did not run.</p>';
  return `${r.faults ? faultsHtml(r.faults) : ''}${r.breakpoint ? breakpointHtml(r.breakpoint) : ''}<h2>Thresholds</h2>
${thresholdChart(r.thresholds)}
${scrollTable(`<tr><th></th><th>threshold</th><th>metric</th><th>expression</th><th>value</th><th>margin</th></tr>${thresholdRows}`)}
${r.anchor_seed_window_ms !== null ? `<p>Seed with rollout, noisy tenant and retry storm (the span of the anchor's seed timer): ${r.anchor_seed_window_ms} ms.</p>` : ''}
<h2>Phases</h2>
${latencyChart(r.phases)}
${scrollTable(`<tr><th>phase</th><th>checks</th><th>requests</th><th>wall ms</th><th>req/s</th><th>med ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th><th>nearest-rank (anchor method)</th></tr>${phaseRows}`)}
${r.failed_checks.length ? `<h3>Failed checks</h3><ul>${r.failed_checks.map((c) => `<li class="bad">${esc(c.name)}: ${c.fails} failed</li>`).join('')}</ul>` : ''}
<h2>Over time</h2>
${overTimeCharts(r.over_time ?? null)}
<h3>Routes created</h3>
<p>${r.routes_seen} routes created.</p>
${throughputChart(r.routes_over_time)}
<h2>Audit</h2>
${audit}
${r.retirement ? `<p>${esc(retirementLine(r.retirement))}</p>` : ''}
<h2>Dataset</h2>
${scrollTable(
  Object.entries(r.dataset)
    .map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v}</td></tr>`)
    .join(''),
)}
`;
}

export function renderLoadHtml(r: MaybeUnderFaults): string {
  const e = r.environment;
  const summary = `${r.reasons.length ? `<ul>${r.reasons.map((x) => `<li class="bad">${esc(x)}</li>`).join('')}</ul>` : 'Every threshold, every phase check and every audited invariant held.'}`;
  return `${pageStart({ title: `fleetproof scale qualification ${r.profile} ${r.verdict}`, heading: `fleetproof scale qualification: ${r.profile}`, verdict: loadVerdictKey(r.verdict), summary })}
<p>Run <code>${esc(r.run_id)}</code> against <code>${esc(e.target.url)}</code>, ${esc(r.started_at)} → ${esc(r.finished_at)}; engine <b>${esc(e.engine.name)} ${esc(e.engine.version)}</b>; overrides: ${esc(r.overrides.join(', ') || 'none')}.</p>
${r.overrides.length ? `<p class="bad">Not a qualification: the profile ran with overrides, so its verdict holds for this configuration only.</p>` : ''}
${r.fitted.length ? `<p>Fitted to the limits the target declares: ${esc(r.fitted.join('; '))}.</p>` : ''}
${loadSections(r)}
<h2>Environment</h2>
${scrollTable(`
<tr><td>harness</td><td>${esc(`${e.harness.name} ${e.harness.version}`)}, commit <code>${esc(e.harness.commit ?? 'unknown')}</code>${e.harness.dirty ? ' (uncommitted changes)' : ''}</td></tr>
<tr><td>engine</td><td>${esc(`${e.engine.name} ${e.engine.version}`)}</td></tr>
<tr><td>target /version</td><td><code>${esc(JSON.stringify(e.target.version))}</code></td></tr>
<tr><td>load machine</td><td>${e.machine.cpus} × ${esc(e.machine.cpu_model)}, ${(e.machine.memory_bytes / 2 ** 30).toFixed(1)} GiB, ${esc(e.machine.platform)}, Node ${esc(e.machine.node)}</td></tr>`)}
${r.script_messages.length ? `<h2>Script messages</h2><pre>${esc(r.script_messages.join('\n'))}</pre>` : ''}
${pageEnd}`;
}
