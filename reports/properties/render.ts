// A property run's pages, in the look of the other reports: the verdict in
// the common words, what produced the run and the command that reruns it,
// then each counterexample with the command that replays it and its shrunk
// script, then one row per suite.
import type { ResultDocument } from '../../properties/runner/result-document.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import { propertiesVerdictKey } from '../../properties/runner/result-document.ts';
import { badge, figureCell, pageEnd, pageStart, table, VERDICT_WORDS, type RunIdentity } from '../look.ts';
import { duration } from '../figures.ts';
import { identityMarkdown } from '../identity-md.ts';

/** What produced a property run, for the page's head. */
export function propertiesIdentity(doc: ResultDocument): RunIdentity {
  return {
    run: doc.run_id,
    harness: `${doc.harness.name} ${doc.harness.version}${doc.harness.commit ? `, commit ${doc.harness.commit}` : ''}`,
    contract: doc.contract_revision ?? null,
    caseSet: doc.case_set ? { ...doc.case_set, of: 'suites' } : null,
    rerun: doc.rerun ?? null,
  };
}

export function renderPropertiesHtml(doc: ResultDocument): string {
  const failed = doc.suites.filter((s) => s.status !== 'pass');
  const rows = doc.suites.map((s) => [
    badge(s.status),
    `<code>${esc(s.name)}</code><br><span class="muted">${esc(s.property_title)}</span>`,
    figureCell(String(s.runs)),
    figureCell(String(s.indeterminate_runs)),
    figureCell(String(s.shrinks)),
    figureCell(duration(s.duration_ms)),
  ]);
  const detail = failed
    .map((s) => {
      const what = s.violation ? `${s.violation.property_title}: ${s.violation.message}` : `could not judge: ${s.error ?? 'unknown'}`;
      const replay = s.replay ? `<p class="muted">To reproduce:</p><pre>${esc(s.replay.command)}</pre>` : '';
      const script = s.counterexample?.length
        ? `<details open><summary>Shrunk counterexample (${s.counterexample.length} steps)</summary><pre>${esc(s.counterexample.join('\n'))}</pre></details>`
        : '';
      return `<div class="group"><h3>${badge(s.status)} <code>${esc(s.name)}</code></h3><p><strong>${esc(what)}</strong></p>${replay}${script}</div>`;
    })
    .join('');
  const count = (status: string) => doc.suites.filter((s) => s.status === status).length;
  const summary = `${doc.suites.length} suites against ${esc(doc.target.description)}: ${count('pass')} hold, ${count('fail')} with a counterexample, ${count('error')} could not be judged. Seed <code>${doc.seed.value}</code> (${esc(doc.seed.source)}).`;
  return `${pageStart({ title: `fleetproof properties: ${doc.verdict}`, heading: 'fleetproof properties', verdict: propertiesVerdictKey(doc.verdict), summary, identity: propertiesIdentity(doc) })}
<p>${esc(doc.started_at)} → ${esc(doc.finished_at)}.</p>
<h2>Counterexamples and errors (${failed.length})</h2>${detail || '<p>None.</p>'}
<h2>Suites</h2>${table(['status', 'suite', 'runs', 'indeterminate runs', 'shrinks', 'time'], rows)}
${pageEnd}`;
}

export function renderPropertiesMarkdown(doc: ResultDocument): string {
  const lines = [
    `# fleetproof properties: ${VERDICT_WORDS[propertiesVerdictKey(doc.verdict)]}`,
    '',
    `Against ${doc.target.description}, seed \`${doc.seed.value}\` (${doc.seed.source}), ${doc.started_at} → ${doc.finished_at}.`,
    '',
    ...identityMarkdown(propertiesIdentity(doc)),
    '| status | suite | runs | indeterminate runs | time |',
    '|---|---|---|---|---|',
  ];
  for (const s of doc.suites) lines.push(`| ${s.status} | ${s.name} | ${s.runs} | ${s.indeterminate_runs} | ${duration(s.duration_ms)} |`);
  for (const s of doc.suites.filter((x) => x.status !== 'pass')) {
    lines.push(
      '',
      `## ${s.status === 'fail' ? 'FAIL' : 'ERROR'} \`${s.name}\``,
      '',
      s.violation ? `${s.violation.property_title}: ${s.violation.message}` : `could not judge: ${s.error ?? 'unknown'}`,
    );
    if (s.replay) lines.push('', 'To reproduce:', '', '```sh', s.replay.command, '```');
    if (s.counterexample?.length) lines.push('', '```', ...s.counterexample, '```');
  }
  return lines.join('\n') + '\n';
}
