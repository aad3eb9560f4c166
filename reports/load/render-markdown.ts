// The load report as Markdown, for pull requests and terminals.
import { breakpointMarkdown } from './render-breakpoint.ts';
import { faultsMarkdown } from './render-faults.ts';
import { retirementLine } from './retirement-line.ts';
import type { MaybeUnderFaults } from '../../load/runner/judge-under-faults.ts';
import { loadVerdictKey, VERDICT_WORDS } from '../look.ts';
import { identityMarkdown } from '../identity-md.ts';
import { loadIdentity, SLO_HEADING } from './render-html.ts';
import { claims } from './claims.ts';

const num = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? 'n/a' : n.toFixed(digits));

export function renderLoadMarkdown(r: MaybeUnderFaults): string {
  const lines: string[] = [];
  lines.push(`# fleetproof scale qualification: ${VERDICT_WORDS[loadVerdictKey(r.verdict)]}`, '', `Profile \`${r.profile}\`.`, '');
  if (r.reasons.length > 0) lines.push(...r.reasons.map((x) => `- ${x}`), '');
  lines.push(`Against ${r.environment.target.url}, ${r.started_at} → ${r.finished_at}.`);
  lines.push(`Engine: ${r.environment.engine.name} ${r.environment.engine.version}. Overrides: ${r.overrides.join(', ') || 'none'}.`, '');
  lines.push(...identityMarkdown(loadIdentity(r)));
  const said = claims(r);
  lines.push(`**What this result claims.** ${said.claims}`, '', `**What it does not.** ${said.doesNotClaim}`, '');
  if (r.profile_info) lines.push(`Profile \`${r.profile}\` (${r.profile_info.format}): ${r.profile_info.description}`, '');
  if (r.overrides.length)
    lines.push('**Not a qualification:** the profile ran with overrides, so its verdict holds for this configuration only.', '');
  if (r.breakpoint) lines.push(...breakpointMarkdown(r.breakpoint));
  if (r.fitted.length) lines.push(`Fitted to the limits the target declares: ${r.fitted.join('; ')}.`, '');
  if (r.stretched) lines.push(`Stretched to this machine: ${r.stretched}.`, '');
  if (r.faults) lines.push(...faultsMarkdown(r.faults));
  lines.push(`## ${SLO_HEADING}`, '', '| | threshold | metric | expression | value | margin |', '|---|---|---|---|---|---|');
  for (const t of r.thresholds) {
    const margin =
      t.margin === null
        ? 'n/a'
        : `${t.margin >= 0 ? '+' : ''}${num(t.margin, 2)} ${t.unit}${t.margin_pct === null ? '' : ` (${num(t.margin_pct)}%)`}`;
    lines.push(
      `| ${t.not_judged !== undefined ? '? (not judged)' : t.ok ? '✓' : '✗'} | ${t.label}${t.source ? ` (${t.source})` : ''} | \`${t.metric}\` | \`${t.expression}\` | ${num(t.value, 2)} ${t.unit} | ${margin} |`,
    );
  }
  if (r.anchor_seed_window_ms !== null)
    lines.push('', `Seed with rollout, noisy tenant and retry storm (the span of the anchor's seed timer): ${r.anchor_seed_window_ms} ms.`);
  lines.push(
    '',
    '## Phases',
    '',
    '| phase | checks | requests | wall ms | req/s | med ms | p95 ms | p99 ms | nearest-rank p99 |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const p of r.phases) {
    const l = p.latency_ms ?? {};
    const nr = p.nearest_rank.map((x) => `${x.operation} ${num(x.p99, 2)}`).join(', ') || '';
    lines.push(
      `| ${p.name} | ${p.status === 'pass' ? '✓' : p.status === 'fail' ? '✗' : '!'} ${p.checks.passes}/${p.checks.passes + p.checks.fails} | ${p.requests} | ${num(p.wall_ms, 0)} | ${num(p.throughput_rps)} | ${num(l['med'], 2)} | ${num(l['p(95)'], 2)} | ${num(l['p(99)'], 2)} | ${nr} |`,
    );
  }
  if (r.failed_checks.length > 0) {
    lines.push('', '## Failed checks', '');
    for (const c of r.failed_checks) lines.push(`- ${c.name}: ${c.fails} failed, ${c.passes} passed`);
  }
  lines.push('', '## Audit', '');
  if (!r.audit) lines.push('The audit did not run.');
  else
    for (const i of r.audit.invariants)
      lines.push(
        `- ${i.ok ? '✓' : '✗'} ${i.description} (${i.checked} checked, ${i.violations} violations)${i.examples.length ? `: ${i.examples.slice(0, 3).join('; ')}` : ''}`,
      );
  if (r.retirement) lines.push('', retirementLine(r.retirement));
  lines.push('', '## Dataset', '', ...Object.entries(r.dataset).map(([k, v]) => `- ${k}: ${v}`));
  const e = r.environment;
  lines.push('', '## Environment', '');
  lines.push(
    `- harness: ${e.harness.name} ${e.harness.version}, commit ${e.harness.commit ?? 'unknown'}${e.harness.dirty ? ' (uncommitted changes)' : ''}`,
  );
  lines.push(`- engine: ${e.engine.name} ${e.engine.version}`);
  lines.push(
    `- target: ${e.target.url}, /version ${JSON.stringify((e.target.version as { implementation?: unknown } | null)?.implementation ?? e.target.version)}`,
  );
  lines.push(
    `- load machine: ${e.machine.cpus} × ${e.machine.cpu_model}, ${(e.machine.memory_bytes / 2 ** 30).toFixed(1)} GiB, ${e.machine.platform}, Node ${e.machine.node}`,
  );
  if (e.machine.load_average)
    lines.push(
      `- load average (1 / 5 / 15 min): ${e.machine.load_average.at_start.join(' / ')} as the run started, ${e.machine.load_average.at_end.join(' / ')} as it ended`,
    );
  return lines.join('\n') + '\n';
}
