// Writes a merged load report: summary.json (the load report with a
// `merge` section), and report.md and report.html rendered by the load
// report's own renderers with the distributed-run section added before the
// thresholds. The merge itself writes histograms.json beside them.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderLoadHtml, SLO_HEADING } from './render-html.ts';
import { figureCell, table } from '../look.ts';
import { renderLoadMarkdown } from './render-markdown.ts';
import { escapeXml as esc } from '../charts/svg.ts';
import type { MergedReport } from '../../load/merge/merge-runs.ts';
import { writeSummary } from '../../load/runner/write-summary.ts';
import { loadJunit } from './write-load-report.ts';

const ms = (n: number | null) => (n === null ? 'n/a' : `${Math.round(n)} ms`);
const engineText = (e: { name: string; version: string } | null) => (e ? `${e.name} ${e.version}` : 'unknown');

function mergeMarkdown(r: MergedReport): string {
  const m = r.merge;
  const lines = [
    '## Distributed run',
    '',
    `${m.parts.length} part(s) merged; execution segments cover ${m.coverage ?? 'an unknown share'} of the test${m.execution_segment ? ` (${m.execution_segment})` : ''}. Test run duration ${ms(m.test_run_duration_ms)} (the longest part). Thresholds evaluated once on the merged data.`,
    '',
    '| part | segment | engine | exit | audited | points | from |',
    '|---|---|---|---|---|---|---|',
    ...m.parts.map(
      (p) =>
        `| \`${p.dir}\` | ${p.execution_segment ?? 'unknown'} | ${engineText(p.engine)} | ${p.engine_exit_code ?? 'n/a'} | ${p.audited ? 'yes' : 'no'} | ${p.points} | ${p.source} |`,
    ),
    '',
    m.scheme,
    ...(m.notes.length ? ['', ...m.notes.map((n) => `- ${n}`)] : []),
    '',
    '',
  ];
  return lines.join('\n');
}

function mergeHtml(r: MergedReport): string {
  const m = r.merge;
  const rows = m.parts.map((p) => [
    `<code>${esc(p.dir)}</code>`,
    esc(p.execution_segment ?? 'unknown'),
    esc(engineText(p.engine)),
    figureCell(String(p.engine_exit_code ?? 'n/a')),
    p.audited ? 'yes' : 'no',
    figureCell(String(p.points)),
    esc(p.source),
  ]);
  return `<h2>Distributed run</h2>
<p>${m.parts.length} part(s) merged; execution segments cover ${esc(m.coverage ?? 'an unknown share')} of the test${m.execution_segment ? ` (${esc(m.execution_segment)})` : ''}. Test run duration ${ms(m.test_run_duration_ms)} (the longest part). Thresholds evaluated once on the merged data.</p>
${table(['part', 'segment', 'engine', 'exit', 'audited', 'points', 'from'], rows)}
<p><small>${esc(m.scheme)}</small></p>
${m.notes.length ? `<ul>${m.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
`;
}

/** Puts `section` before the first `anchor` of the page, or at its end when the anchor is missing. */
function insertBefore(page: string, anchor: string, section: string, fallback: string): string {
  const at = page.indexOf(anchor);
  if (at !== -1) return page.slice(0, at) + section + page.slice(at);
  const end = page.lastIndexOf(fallback);
  return end === -1 ? page + section : page.slice(0, end) + section + page.slice(end);
}

export async function writeMergedReport(dir: string, report: MergedReport): Promise<{ json: string; html: string; markdown: string }> {
  const files = { ...(await writeSummary(dir, report)), html: join(dir, 'report.html'), markdown: join(dir, 'report.md') };
  await writeFile(files.html, insertBefore(renderLoadHtml(report), `<h2>${SLO_HEADING}</h2>`, mergeHtml(report), '</body>'));
  await writeFile(files.markdown, insertBefore(renderLoadMarkdown(report), `## ${SLO_HEADING}`, mergeMarkdown(report), ''));
  await writeFile(join(dir, 'junit.xml'), loadJunit(report));
  return files;
}
