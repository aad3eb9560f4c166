// The Markdown report: verdict first, then what was run against what, the
// clauses that did not pass, every failure with its exchange, and the clause
// table. Readable as plain text and on any forge that renders Markdown.
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import { VERDICT_WORDS } from '../look.ts';
import { exchangeText } from './exchange-text.ts';
import { groupFailures } from './failure-groups.ts';
import { exchangeReplay, rerunCommand } from './reproduce.ts';
import { replayLine } from './failure-html.ts';
import { identityMarkdown } from '../identity-md.ts';
import { conformanceIdentity } from './render-html.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdown(r: ConformanceResult): string {
  const s = r.summary;
  const out: string[] = [];
  out.push(`# fleetproof conformance: ${VERDICT_WORDS[r.verdict]}`, '');
  if (!r.selection.complete) out.push('> Partial run (a selection of cases, or overridden features): not a certification.', '');
  out.push(
    `**${r.target.version.implementation.name} ${r.target.version.implementation.version}** at \`${r.target.url}\` against \`${r.contract.version}\`.`,
    '',
    `${s.total} cases: ${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} error; ${s.blocking} block qualification.`,
    '',
    ...identityMarkdown(conformanceIdentity(r)),
    '| | |',
    '|---|---|',
    `| features | declared: ${r.features.declared.join(', ') || '(none)'}; tested: ${r.features.effective.join(', ') || '(none)'}${r.features.overridden ? ' (overridden)' : ''} |`,
    `| started | ${r.timings.started_at} (${(r.timings.duration_ms / 1000).toFixed(1)} s) |`,
    `| server clock | offset ${r.target.clock.offset_ms} ms (${r.target.clock.source}) |`,
    `| retirement | ${r.kept_data ? `kept (--keep-data); retire later with \`${r.kept_data.retire}\`` : r.retirement.status} |`,
    '',
  );
  const groups = groupFailures(r.cases);
  if (groups.length > 0) {
    // One cause, one section: its first case in full, the others by id.
    out.push(
      `## Failures and errors (${groups.reduce((n, g) => n + g.cases.length, 0)}, ${groups.length} cause${groups.length === 1 ? '' : 's'})`,
      '',
    );
    for (const g of groups) {
      const [c, ...rest] = g.cases;
      out.push(
        `### ${g.cases.length} × \`${g.cause}\``,
        '',
        `${c!.status === 'fail' ? 'FAIL' : 'ERROR'} \`${c!.id}\`: clause [${c!.failure_clause ?? c!.clause}] (${c!.severity ?? 'unknown'}). ${c!.description}`,
        '',
        ...(c!.clause_text ? [`> [${c!.failure_clause ?? c!.clause}] ${c!.clause_text}`, ''] : []),
        `**${c!.message ?? ''}**`,
        '',
        ...(c!.replay ? [replayLine(c!.replay), ''] : []),
      );
      if (c!.exchange) out.push('```http', exchangeText(c!.exchange), '```', '');
      out.push('To reproduce, rerun the case:', '', '```sh', rerunCommand(r, c!), '```', '');
      // Folded where Markdown is rendered: the curl repeats the request body the exchange above shows.
      if (c!.exchange)
        out.push(
          '<details><summary>Replay that exchange with curl</summary>',
          '',
          '```sh',
          exchangeReplay(r, c!.exchange),
          '```',
          '',
          '</details>',
          '',
        );
      if (rest.length) out.push(`Also: ${rest.map((x) => `\`${x.id}\``).join(', ')}.`, '');
    }
  }
  // Skips never block the verdict, but each says why (a feature not declared, a clause the limits leave unprovocable).
  const skipped = r.cases.filter((c) => c.status === 'skip');
  if (skipped.length > 0) {
    out.push('## Skipped', '', '| case | clause | reason |', '|---|---|---|');
    for (const c of skipped) out.push(`| \`${c.id}\` | [${c.clause}] | ${cell(c.message ?? '')} |`);
    out.push('');
  }
  out.push('## Clauses', '', '| status | clause | keyword | cases |', '|---|---|---|---|');
  for (const c of r.clauses) {
    const note = c.exempt ? `exempt: ${c.exempt}` : c.cases.length === 0 ? 'no case run' : c.cases.join(', ');
    const by = c.failed_by.length ? `; broken by ${c.failed_by.join(', ')}` : '';
    out.push(`| ${c.status} | [${c.id}] | ${c.keyword} | ${cell(note + by)} |`);
  }
  out.push('', '## Categories', '', '| status | category | pass | fail | skip | error |', '|---|---|---|---|---|---|');
  for (const c of r.categories)
    out.push(`| ${c.status} | ${c.id} | ${c.counts.pass} | ${c.counts.fail} | ${c.counts.skip} | ${c.counts.error} |`);
  if (r.retirement.failures.length > 0) {
    out.push('', '## Retirement problems', '');
    for (const f of r.retirement.failures) out.push(`- ${f.kind} \`${f.id}\`: ${cell(f.message)}`);
  }
  return out.join('\n') + '\n';
}
