// One vocabulary and one look for every report page (certification,
// conformance, properties, load, comparison): the same verdict words, the
// same banner with what produced the run and the command that reruns it, the
// same status badges, tables and one stylesheet, so a reader who learnt one
// page reads the others. The words render verdicts the harness parts decided;
// nothing here decides one.
import { VERDICT_WORDS, type VerdictKey } from '../client/verdict-words.ts';
import { escapeXml as esc } from './charts/svg.ts';
import { CHART_CSS } from './charts/chart-css.ts';

export { VERDICT_WORDS };
export { loadVerdictKey } from '../load/runner/load-report.ts';

/** Below this width tables stack their rows (label: value) and charts put labels above their bars. */
export const NARROW_PX = 640;

const CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1180px;padding:16px 24px;color:#1b1f24;background:#fff;overflow-wrap:break-word}
h1{font-size:24px;margin:0 0 8px}h2{font-size:19px;margin:30px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:16px;margin:18px 0 6px}
a{color:#0969da}
.verdict{padding:14px 18px;border-radius:8px;margin-bottom:12px}.verdict .word{font-size:22px;font-weight:700;letter-spacing:.02em}
.verdict ul{margin:6px 0;padding-left:20px}
.comparison{background:#f6f8fa;border:1px solid #d0d7de}.qualified{background:#dafbe1;border:1px solid #1a7f37}.non-conformant{background:#ffebe9;border:1px solid #cf222e}.could-not-run,.could-not-judge{background:#fff8c5;border:1px solid #9a6700}
.grounds:empty{display:none}.grounds{margin:6px 0 0}.grounds p{margin:2px 0}
.partial{font-weight:600;color:#9a6700}
.identity{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0 4px;font-size:14px}
.identity dt{color:#57606a}.identity dd{margin:0;min-width:0;overflow-wrap:break-word}
.rerun{margin:4px 0 16px}.rerun pre{margin:4px 0}
.scroll{overflow-x:auto;max-width:100%;margin:6px 0 16px}
table{border-collapse:collapse;font-size:14px;width:100%}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #eaeef2;vertical-align:top;overflow-wrap:break-word}
thead th{background:#f6f8fa;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.nowrap,td.n{white-space:nowrap}
table.facts th{background:none;font-weight:600;color:#57606a;width:14em}
.s{font-weight:600;text-transform:uppercase;font-size:11px;padding:1px 6px;border-radius:4px;white-space:nowrap}
.pass,.passed,.hold,.reproduced{background:#dafbe1;color:#116329}.fail,.failed,.worse{background:#ffebe9;color:#a40e26}.error,.differed{background:#fff1e5;color:#953800}.skip,.skipped,.unknown,.kept,.not-replayed,.no-answer{background:#eaeef2;color:#57606a}
.better{background:#ddf4ff;color:#0a3069}
span.could-not-run,span.could-not-judge{background:#fff1e5;color:#953800;border:0}
.ok{color:#1a7f37}.bad{color:#cf222e}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:10px;font-size:12.5px;white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%;margin:6px 0}
code{font-size:13px;overflow-wrap:break-word}.muted{color:#57606a}
blockquote.clause{margin:6px 0;padding:4px 12px;border-left:3px solid #d0d7de;color:#3d444d}
details{margin:6px 0}details summary{cursor:pointer;margin:4px 0}
.group{border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;margin:10px 0}
.claims{background:#f6f8fa;border-radius:6px;padding:10px 14px}
@media (max-width:${NARROW_PX}px){
body{padding:10px;font-size:14px}.verdict{padding:10px 12px}.verdict .word{font-size:19px}
.identity{grid-template-columns:1fr}.identity dd{margin-bottom:4px}
table.stack,table.stack tbody,table.stack tr,table.stack td,table.stack th{display:block;width:auto}
table.stack thead{display:none}
table.stack tr{display:flex;flex-wrap:wrap;column-gap:16px;border:1px solid #d0d7de;border-radius:6px;margin:8px 0;padding:4px 10px}
table.stack td{border:0;padding:2px 0;text-align:left;white-space:normal;min-width:0;max-width:100%}
table.stack td:first-child{flex-basis:100%}
table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:#57606a}
table.facts,table.facts tbody,table.facts tr,table.facts th,table.facts td{display:block;width:auto;border:0;padding:0}
table.facts tr{padding:4px 0;border-bottom:1px solid #eaeef2}
}
${CHART_CSS}`;

export const badge = (status: string, label = status) => `<span class="s ${esc(status)}">${esc(label)}</span>`;

/** A cell: its HTML, and whether it holds a figure (right-aligned, never wrapped). */
export type Cell = string | { html: string; figure: true };

/** A figure in a table cell: right-aligned and kept on one line. */
export const figureCell = (html: string): Cell => ({ html, figure: true });

/**
 * A table with a header row whose rows stack on a narrow screen, each cell
 * then prefixed by its column's name: nothing scrolls sideways out of view.
 * `head` and the cells are HTML.
 */
export function table(head: readonly string[], rows: ReadonlyArray<readonly Cell[]>, attrs = ''): string {
  const labels = head.map((h) => h.replace(/<[^>]*>/g, '').trim());
  const headRow = head.map((h) => `<th>${h}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${row
          .map((cell, i) => {
            const label = labels[i] ? ` data-label="${esc(labels[i]!)}"` : '';
            return typeof cell === 'string' ? `<td${label}>${cell}</td>` : `<td class="n"${label}>${cell.html}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('\n');
  return `<div class="scroll"><table class="stack"${attrs ? ` ${attrs}` : ''}><thead><tr>${headRow}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** Label–value rows (HTML values); on a narrow screen each label sits above its value. */
export function facts(rows: ReadonlyArray<readonly [string, string]>): string {
  return `<table class="facts"><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</tbody></table>`;
}

/** A path in the run directory as a link, breakable after each slash rather than mid-word. */
export const fileLink = (path: string) => `<a href="${esc(path)}"><code>${esc(path).replace(/\//g, '/<wbr>')}</code></a>`;

/** What produced a run, as every report names it; null where an older document did not record it. */
export interface RunIdentity {
  run: string;
  harness: string;
  contract: string | null;
  caseSet: { digest: string; count: number; of: string } | null;
  rerun: string | null;
}

const NOT_RECORDED = '<span class="muted">not recorded by the harness that made this run</span>';

function identityBlock(id: RunIdentity): string {
  const caseSet = id.caseSet
    ? `<code>${esc(id.caseSet.digest.slice(0, 19))}…</code> <span class="muted">(${id.caseSet.count} ${esc(id.caseSet.of)}; <span title="${esc(id.caseSet.digest)}">full digest</span> in the result document)</span>`
    : NOT_RECORDED;
  const rows: Array<[string, string]> = [
    ['Run', `<code>${esc(id.run)}</code>`],
    ['Harness', esc(id.harness)],
    ['Contract', id.contract ? `<code>${esc(id.contract)}</code>` : NOT_RECORDED],
    ['Case set', caseSet],
  ];
  const rerun = id.rerun
    ? `<div class="rerun"><span class="muted">Rerun this run (secrets are placeholders):</span><pre>${esc(id.rerun)}</pre></div>`
    : `<div class="rerun muted">The command that reruns this run was not recorded.</div>`;
  return `<dl class="identity">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>${rerun}`;
}

/**
 * The page's head, verdict banner and identity. `grounds` is the slot for
 * what the verdict rests on (profile, clauses a run could not exercise):
 * rendered right under the verdict word, empty and hidden when the caller has none.
 */
export function pageStart(args: {
  title: string;
  heading: string;
  verdict: VerdictKey | 'comparison';
  summary: string;
  grounds?: string;
  identity?: RunIdentity;
}): string {
  const word = args.verdict === 'comparison' ? '' : `<div class="word">${VERDICT_WORDS[args.verdict]}</div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(args.title)}</title><style>${CSS}</style></head><body>
<h1>${esc(args.heading)}</h1>
<div class="verdict ${args.verdict}">${word}<div>${args.summary}</div><div class="grounds">${args.grounds ?? ''}</div></div>
${args.identity ? identityBlock(args.identity) : ''}
`;
}

export const pageEnd = '</body></html>\n';
