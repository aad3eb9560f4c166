// The scale qualification report as one self-contained page that stands
// alone as a datasheet: the verdict and what it claims, the profile and its
// SLOs against the results, the faults of a run under a nemesis, the phases,
// the run over time, the audit, and the environment (engine, the target's
// GET /version, the load machine and how busy it was). Charts are inline;
// nothing is fetched.
import { escapeXml as esc } from '../charts/svg.ts';
import { badge, facts, figureCell, loadVerdictKey, pageEnd, pageStart, table, type RunIdentity } from '../look.ts';
import { duration, measured, withUnit } from '../figures.ts';
import { versionTable } from '../version-table.ts';
import { latencyChart, overTimeCharts, routesChart, thresholdChart } from './charts.ts';
import { breakpointHtml } from './render-breakpoint.ts';
import { faultsHtml } from './render-faults.ts';
import { retirementLine } from './retirement-line.ts';
import { claims } from './claims.ts';
import type { MaybeUnderFaults } from '../../load/runner/judge-under-faults.ts';

const mark = (ok: boolean) => (ok ? '<span class="ok">✓</span>' : '<span class="bad">✗</span>');

function profileSection(r: MaybeUnderFaults, h: string): string {
  const info = r.profile_info;
  const phases = (info?.phases ?? r.phases.map((p) => ({ name: p.name }))).map((p) =>
    'budget_s' in p && p.budget_s !== undefined ? `${esc(p.name)} <span class="muted">(within ${p.budget_s} s)</span>` : esc(p.name),
  );
  const rows: Array<[string, string]> = [
    ['profile', `<code>${esc(r.profile)}</code>${info ? ` <span class="muted">(${esc(info.format)})</span>` : ''}`],
    ...(info ? [['what it runs', esc(info.description)] as [string, string]] : []),
    ...(info?.duration_s ? [['sustained phases run', `${info.duration_s} s`] as [string, string]] : []),
    ['phases, in order', phases.join(', ')],
    [
      'dataset',
      Object.entries(r.dataset)
        .map(([k, v]) => `${esc(k.replace(/_/g, ' '))} <b>${v}</b>`)
        .join(', '),
    ],
    ['overrides', r.overrides.length ? `<span class="bad">${esc(r.overrides.join(', '))}</span>` : 'none'],
    ...(r.fitted.length ? [['fitted to the target\u2019s limits', esc(r.fitted.join('; '))] as [string, string]] : []),
    ...(r.stretched ? [['stretched to this machine', esc(r.stretched)] as [string, string]] : []),
  ];
  return `<${h}>Profile</${h}>${facts(rows)}`;
}

/** The heading the SLOs come under, on the page and in the Markdown; a merged report puts its parts before it. */
export const SLO_HEADING = 'SLOs against the results';

function sloSection(r: MaybeUnderFaults, h: string): string {
  const rows = r.thresholds.map((t) => [
    `${t.not_judged !== undefined ? `<span title="${esc(t.not_judged)}">? not judged</span>` : mark(t.ok)} ${esc(t.label)}${t.source ? `<br><span class="muted">${esc(t.source)}</span>` : ''}`,
    `<code title="${esc(t.metric)}">${esc(t.metric)}</code> <code>${esc(t.expression)}</code>`,
    figureCell(esc(withUnit(t.limit, t.unit))),
    figureCell(`<b>${esc(withUnit(t.value, t.unit))}</b>`),
    figureCell(
      t.margin === null
        ? 'n/a'
        : `${t.margin >= 0 ? '+' : '−'}${esc(withUnit(Math.abs(t.margin), t.unit))}${t.margin_pct === null || t.unit === 'ratio' ? '' : ` (${measured(t.margin_pct)} %)`}`,
    ),
  ]);
  return `<${h}>${SLO_HEADING}</${h}>
${thresholdChart(r.thresholds)}
${table(['SLO', 'measured as', 'limit', 'measured', 'margin'], rows)}
${r.anchor_seed_window_ms !== null ? `<p>Seed with rollout, noisy tenant and retry storm (the span of the anchor's seed timer): ${duration(r.anchor_seed_window_ms)}.</p>` : ''}`;
}

function phasesSection(r: MaybeUnderFaults, h: string): string {
  const rows = r.phases.map((p) => {
    const l = p.latency_ms ?? {};
    const nr = p.nearest_rank
      .map((x) => `${esc(x.operation)}: p50 ${measured(x.p50)}, p95 ${measured(x.p95)}, p99 ${measured(x.p99)} ms (n=${x.count})`)
      .join('<br>');
    const status = p.status === 'error' ? badge('error', 'no verdict') : badge(p.status);
    return [
      esc(p.name),
      `<span class="nowrap">${status} ${p.checks.passes}/${p.checks.passes + p.checks.fails}</span>`,
      figureCell(String(p.requests)),
      figureCell(duration(p.wall_ms)),
      figureCell(p.throughput_rps === null ? 'n/a' : `${measured(p.throughput_rps)}/s`),
      figureCell(withUnit(l['med'], 'ms')),
      figureCell(withUnit(l['p(95)'], 'ms')),
      figureCell(withUnit(l['p(99)'], 'ms')),
      figureCell(withUnit(l['max'], 'ms')),
      nr || '<span class="muted">n/a</span>',
    ];
  });
  return `<${h}>Phases</${h}>
${latencyChart(r.phases)}
${table(['phase', 'checks', 'requests', 'wall time', 'throughput', 'p50', 'p95', 'p99', 'max', 'nearest rank (the anchor\u2019s method)'], rows)}
${r.failed_checks.length ? `<p><b>Failed checks:</b></p><ul>${r.failed_checks.map((c) => `<li class="bad">${esc(c.name)}: ${c.fails} failed</li>`).join('')}</ul>` : ''}`;
}

function auditSection(r: MaybeUnderFaults, h: string): string {
  const audit = r.audit
    ? table(
        ['invariant', 'checked', 'violations', 'examples'],
        r.audit.invariants.map((i) => [
          `${mark(i.ok)} ${esc(i.description)} <span class="muted">(${esc(i.id)})</span>`,
          figureCell(String(i.checked)),
          figureCell(String(i.violations)),
          i.examples.map((x) => `<code>${esc(x)}</code>`).join('<br>') || '<span class="muted">none</span>',
        ]),
      ) + r.audit.errors.map((x) => `<p class="bad">${esc(x)}</p>`).join('')
    : '<p class="bad">The audit did not run.</p>';
  const kept = r.retirement
    ? `<p>${esc(retirementLine(r.retirement))}</p>`
    : r.audit
      ? `<p>The run\u2019s records were kept as they are (<code>--keep-data</code>): its connector types (<code>ctype_${esc(r.run_id)}_…</code>) stay enabled and its replicas (<code>crepl_${esc(r.run_id)}_…</code>) as the run left them.</p>`
      : '';
  return `<${h}>Audit</${h}>${audit}${kept}`;
}

function environmentSection(r: MaybeUnderFaults, h: string): string {
  const e = r.environment;
  const m = e.machine;
  const load = m.load_average
    ? `${m.load_average.at_start.map(measured).join(' / ')} as it started, ${m.load_average.at_end.map(measured).join(' / ')} as it ended (1 / 5 / 15 min)`
    : 'not recorded';
  return `<${h}>Environment</${h}>
${facts([
  ['engine', `${esc(e.engine.name)} <b>${esc(e.engine.version)}</b>`],
  [
    'load machine',
    `${m.cpus} cores × ${esc(m.cpu_model.trim())}, ${measured(m.memory_bytes / 2 ** 30)} GiB, ${esc(m.platform)}, Node ${esc(m.node)}`,
  ],
  ['its load average', load],
  [
    'harness',
    `${esc(`${e.harness.name} ${e.harness.version}`)}, commit <code>${esc(e.harness.commit ?? 'unknown')}</code>${e.harness.dirty ? ' (uncommitted changes)' : ''}`,
  ],
  ['target', `<code>${esc(e.target.url)}</code>`],
])}
<p>The target\u2019s <code>GET /version</code>:</p>
${versionTable(e.target.version)}`;
}

/** Every section below the verdict; `level` 3 nests them under a heading of the certification page. */
export function loadSections(r: MaybeUnderFaults, level: 2 | 3 = 2): string {
  const h = `h${level}`;
  return [
    profileSection(r, h),
    r.faults ? faultsHtml(r.faults, h) : '',
    r.breakpoint ? breakpointHtml(r.breakpoint, r.thresholds, h) : '',
    sloSection(r, h),
    phasesSection(r, h),
    `<${h}>Over time</${h}>${overTimeCharts(r.over_time ?? null, r.thresholds)}${routesChart(r.routes_over_time)}<p>${r.routes_seen} routes in all, each counted once, when the registry first returned it.</p>`,
    auditSection(r, h),
    environmentSection(r, h),
    r.script_messages.length ? `<${h}>Script messages</${h}><pre>${esc(r.script_messages.join('\n'))}</pre>` : '',
  ].join('\n');
}

/** What produced a load run, for the page's head. */
export function loadIdentity(r: MaybeUnderFaults): RunIdentity {
  const e = r.environment.harness;
  return {
    run: r.run_id,
    harness: `${e.name} ${e.version}, commit ${e.commit ?? 'unknown'}${e.dirty ? ' (uncommitted changes)' : ''}`,
    contract: r.contract_revision ?? null,
    caseSet: r.case_set ? { ...r.case_set, of: 'phases, thresholds and dataset dimensions' } : null,
    rerun: r.rerun ?? null,
  };
}

export function renderLoadHtml(r: MaybeUnderFaults): string {
  const said = claims(r);
  const summary = `${r.reasons.length ? `<ul>${r.reasons.map((x) => `<li class="bad">${esc(x)}</li>`).join('')}</ul>` : 'Every threshold, every phase check and every audited invariant held.'}`;
  return `${pageStart({ title: `fleetproof scale qualification ${r.profile} ${r.verdict}`, heading: `fleetproof scale qualification: ${r.profile}`, verdict: loadVerdictKey(r.verdict), summary, identity: loadIdentity(r) })}
<p>Against <code>${esc(r.environment.target.url)}</code>, ${esc(r.started_at)} → ${esc(r.finished_at)}, on ${esc(r.environment.engine.name)} ${esc(r.environment.engine.version)}.</p>
${r.overrides.length ? `<p class="bad">Not a qualification: the profile ran with overrides, so its verdict holds for this configuration only.</p>` : ''}
<div class="claims"><p><b>What this result claims.</b> ${esc(said.claims)}</p><p><b>What it does not.</b> ${esc(said.doesNotClaim)}</p></div>
${loadSections(r)}
${pageEnd}`;
}
