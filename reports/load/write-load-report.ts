// Writes a load report's three forms into the run directory.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadReport } from '../../load/report/load-report.ts';
import { renderLoadHtml } from './render-html.ts';
import { renderLoadMarkdown } from './render-markdown.ts';

export async function writeLoadReport(dir: string, report: LoadReport): Promise<{ json: string; html: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const files = { json: join(dir, 'summary.json'), html: join(dir, 'report.html'), markdown: join(dir, 'report.md') };
  await writeFile(files.json, JSON.stringify(report, null, 2) + '\n');
  await writeFile(files.html, renderLoadHtml(report));
  await writeFile(files.markdown, renderLoadMarkdown(report));
  return files;
}
