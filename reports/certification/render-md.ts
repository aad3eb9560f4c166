// The certification report as Markdown: the same order as the HTML page, for
// pasting into a pull request or an issue.
import type { CertificationResult } from '../schemas/certification-result.ts';
import { VERDICT_WORDS } from '../look.ts';
import { identityMarkdown } from '../identity-md.ts';
import { certificationIdentity } from './render-html.ts';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderCertificationMarkdown(r: CertificationResult): string {
  const impl = r.target.version?.implementation;
  const lines = [
    `# fleetproof certification: ${VERDICT_WORDS[r.verdict]}`,
    ...(r.grounds ?? []).flatMap((g) => ['', `**${g}**`]),
    '',
    ...(r.reasons.length
      ? r.reasons.map((x) => `- ${x}`)
      : [
          'Every conformance case passed (or was skipped for the reason listed), every property held, and the load profile met every threshold with a clean audit.',
        ]),
    '',
    `Target ${r.target.url}${impl ? ` (${impl.name} ${impl.version})` : ''}; contract \`${r.contract}\`; profile \`${r.profile}\`; ${r.started_at} → ${r.finished_at}.`,
    '',
    ...identityMarkdown(certificationIdentity(r)),
    ...(r.kept_data
      ? [
          `The conformance stage kept its records on the target (--keep-data), so each failure's curl replays against them. Retire them when done: \`${r.kept_data.retire}\``,
          '',
        ]
      : []),
    '## Stages',
    '',
    '| stage | status | time | figures | reasons |',
    '|---|---|---|---|---|',
    ...r.stages.map(
      (s) =>
        `| ${s.name} | ${s.status} | ${(s.duration_ms / 1000).toFixed(1)} s | ${cell(
          Object.entries(s.figures)
            .map(([k, v]) => `${k.replace(/_/g, ' ')} ${v}`)
            .join(', '),
        )} | ${cell(s.reasons.join('; '))} |`,
    ),
    '',
    `## Failures (${r.failures.length})`,
    '',
  ];
  for (const f of r.failures) {
    lines.push(
      `### ${f.stage}: \`${f.subject}\`${f.clause ? ` [${f.clause}]` : ''}`,
      '',
      ...(f.clause_text ? [`> ${f.clause_text}`, ''] : []),
      f.message,
      '',
      'To reproduce:',
      '',
      '```',
      f.reproduce,
      '```',
      '',
    );
  }
  if (r.failures.length === 0) lines.push('None.', '');
  const skips = r.stages.flatMap((s) => (s.skips ?? []).map((k) => ({ stage: s.name, ...k })));
  if (skips.length > 0) {
    lines.push(`## Skipped (${skips.length}, never blocking)`, '', '| stage | subject | clause | reason |', '|---|---|---|---|');
    for (const k of skips) lines.push(`| ${k.stage} | \`${k.subject}\` | ${k.clause} | ${cell(k.reason)} |`);
    lines.push('');
  }
  const required = r.clauses.filter((c) => c.severity === 'required');
  lines.push(
    '## Clauses',
    '',
    `${required.length} required clauses; ${required.filter((c) => c.status === 'unknown').length} had no check that ran.`,
    '',
  );
  lines.push('| clause | keyword | status | cases | properties and audit |', '|---|---|---|---|---|');
  for (const c of r.clauses) {
    lines.push(
      `| ${c.id} | ${c.keyword} | ${c.status} | ${c.cases.length} | ${cell(c.properties.map((p) => `${p.suite} ${p.status}`).join(', '))} |`,
    );
  }
  const e = r.environment;
  lines.push(
    '',
    '## Environment',
    '',
    `- harness: ${r.harness.name} ${r.harness.version}, commit \`${r.harness.commit}\``,
    `- machine: ${e.cpus.count} × ${e.cpus.model}, ${(e.memory_bytes / 2 ** 30).toFixed(1)} GiB, ${e.platform} ${e.arch}, Node ${e.node}`,
    `- PostgreSQL: ${e.postgres ?? 'not used by the harness'}`,
    '',
    'Each stage has its own report in its directory (conformance/, properties/, faults/, load/). The run is signed in `bundle.json`.',
    '',
  );
  return lines.join('\n');
}
