// One vocabulary and one look for every report page (certification,
// conformance, properties, load): the same verdict words, the same banner,
// the same status badges and one stylesheet, so a reader who learnt one page
// reads the others. The words render verdicts the harness parts decided;
// nothing here decides one.
import { VERDICT_WORDS, type VerdictKey } from '../client/verdict-words.ts';
import { escapeXml as esc } from './charts/svg.ts';

export { VERDICT_WORDS };
export { loadVerdictKey } from '../load/runner/load-report.ts';

export const CSS = `
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#1b1f24;background:#fff}
h1{font-size:24px;margin:0 0 8px}h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:16px;margin:16px 0 6px}
.verdict{padding:14px 18px;border-radius:8px;margin-bottom:12px}.verdict .word{font-size:22px;font-weight:700;letter-spacing:.02em}
.qualified{background:#dafbe1;border:1px solid #1a7f37}.non-conformant{background:#ffebe9;border:1px solid #cf222e}.could-not-run{background:#fff8c5;border:1px solid #9a6700}
.grounds:empty{display:none}.grounds{margin:6px 0 0}
.partial{font-weight:600;color:#9a6700}
.scroll{overflow-x:auto;max-width:100%;margin:6px 0 16px}
table{border-collapse:collapse;font-size:14px}.scroll>table{min-width:100%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eaeef2;vertical-align:top}th{background:#f6f8fa}
.s{font-weight:600;text-transform:uppercase;font-size:11px;padding:1px 6px;border-radius:4px;white-space:nowrap}
.pass,.passed{background:#dafbe1;color:#116329}.fail,.failed{background:#ffebe9;color:#a40e26}.error{background:#fff1e5;color:#953800}.skip,.skipped,.unknown{background:#eaeef2;color:#57606a}
span.could-not-run{background:#fff1e5;color:#953800;border:0}
.ok{color:#1a7f37}.bad{color:#cf222e}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:10px;overflow-x:auto;font-size:12.5px;white-space:pre-wrap;word-break:break-word;max-width:100%}
code{font-size:13px;word-break:break-word}.muted{color:#57606a}
svg.chart{display:block;width:100%;height:auto;margin:8px 0}
details{margin:6px 0}details summary{cursor:pointer;margin:4px 0}
.group{border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;margin:10px 0}
@media (max-width:600px){body{padding:10px;font-size:14px}.verdict .word{font-size:19px}th,td{padding:3px 5px}}
`;

export const badge = (status: string) => `<span class="s ${esc(status)}">${esc(status)}</span>`;

/** A table that scrolls inside its own box on a narrow screen instead of widening the page. */
export const scrollTable = (inner: string) => `<div class="scroll"><table>${inner}</table></div>`;

/**
 * The page's head and verdict banner. `grounds` is the slot for what the
 * verdict rests on (profile, clauses a run could not exercise): rendered
 * right under the verdict word, empty and hidden when the caller has none.
 */
export function pageStart(args: { title: string; heading: string; verdict: VerdictKey; summary: string; grounds?: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(args.title)}</title><style>${CSS}</style></head><body>
<h1>${esc(args.heading)}</h1>
<div class="verdict ${args.verdict}"><div class="word">${VERDICT_WORDS[args.verdict]}</div><div>${args.summary}</div><div class="grounds">${args.grounds ?? ''}</div></div>
`;
}

export const pageEnd = '</body></html>\n';
