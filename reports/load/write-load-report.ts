// Writes a load report's three forms into the run directory: the document
// (summary.json) and its two renderings.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadReport } from '../../load/runner/load-report.ts';
import { writeSummary } from '../../load/runner/write-summary.ts';
import { renderLoadHtml } from './render-html.ts';
import { renderLoadMarkdown } from './render-markdown.ts';

export async function writeLoadReport(dir: string, report: LoadReport): Promise<{ json: string; html: string; markdown: string }> {
  const files = { ...(await writeSummary(dir, report)), html: join(dir, 'report.html'), markdown: join(dir, 'report.md') };
  await writeFile(files.html, renderLoadHtml(report));
  await writeFile(files.markdown, renderLoadMarkdown(report));
  return files;
}
