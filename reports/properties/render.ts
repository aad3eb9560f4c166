// A property run's pages, in the look of the other reports: the verdict in
// the common words, then one row per suite, then each counterexample with
// the command that replays it and its shrunk script.
import type { ResultDocument } from '../../properties/runner/result-document.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import { propertiesVerdictKey } from '../../properties/runner/result-document.ts';
import { badge, pageEnd, pageStart, scrollTable, VERDICT_WORDS } from '../look.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function renderPropertiesHtml(doc: ResultDocument): string {
  const failed = doc.suites.filter((s) => s.status !== 'pass');
  const rows = doc.suites
    .map(
      (s) =>
        `<tr><td>${badge(s.status)}</td><td><code>${esc(s.name)}</code><br><span class="muted">${esc(s.property_title)}</span></td><td>${s.runs}</td><td>${s.indeterminate_runs}</td><td>${s.shrinks}</td><td>${seconds(s.duration_ms)}</td></tr>`,
    )
    .join('');
  const detail = failed
    .map((s) => {
      const what = s.violation ? `${s.violation.property_title}: ${s.violation.message}` : `could not judge: ${s.error ?? 'unknown'}`;
      const replay = s.replay ? `<p class="muted">To reproduce:</p><pre>${esc(s.replay.command)}</pre>` : '';
      const script = s.counterexample?.length
        ? `<p class="muted">Shrunk counterexample:</p><pre>${esc(s.counterexample.join('\n'))}</pre>`
        : '';
      return `<div class="group"><h3>${badge(s.status)} <code>${esc(s.name)}</code></h3><p><strong>${esc(what)}</strong></p>${replay}${script}</div>`;
    })
    .join('');
  const summary = `${doc.suites.length} suites against ${esc(doc.target.description)}: ${doc.suites.filter((s) => s.status === 'pass').length} hold, ${doc.suites.filter((s) => s.status === 'fail').length} with a counterexample, ${doc.suites.filter((s) => s.status === 'error').length} could not be judged. Seed <code>${doc.seed.value}</code> (${esc(doc.seed.source)}).`;
  return `${pageStart({ title: `fleetproof properties: ${doc.verdict}`, heading: 'fleetproof properties', verdict: propertiesVerdictKey(doc.verdict), summary })}
<p>Run <code>${esc(doc.run_id)}</code>, ${esc(doc.started_at)} → ${esc(doc.finished_at)}; harness ${esc(doc.harness.name)} ${esc(doc.harness.version)}.</p>
<h2>Counterexamples and errors (${failed.length})</h2>${detail || '<p>None.</p>'}
<h2>Suites</h2>${scrollTable(`<tr><th>status</th><th>suite</th><th>runs</th><th>indeterminate</th><th>shrinks</th><th>time</th></tr>${rows}`)}
${pageEnd}`;
}

export function renderPropertiesMarkdown(doc: ResultDocument): string {
  const lines = [
    `# fleetproof properties: ${VERDICT_WORDS[propertiesVerdictKey(doc.verdict)]}`,
    '',
    `Run \`${doc.run_id}\` against ${doc.target.description}, seed \`${doc.seed.value}\` (${doc.seed.source}), ${doc.started_at} → ${doc.finished_at}.`,
    '',
    '| status | suite | runs | indeterminate | time |',
    '|---|---|---|---|---|',
  ];
  for (const s of doc.suites) lines.push(`| ${s.status} | ${s.name} | ${s.runs} | ${s.indeterminate_runs} | ${seconds(s.duration_ms)} |`);
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
