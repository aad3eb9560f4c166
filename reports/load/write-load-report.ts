// Writes a load report's forms into the run directory: the document
// (summary.json), its two pages and junit.xml.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadReport } from '../../load/runner/load-report.ts';
import { writeSummary } from '../../load/runner/write-summary.ts';
import { renderLoadHtml } from './render-html.ts';
import { renderLoadMarkdown } from './render-markdown.ts';
import { renderJunitXml, spanSeconds } from '../junit/junit.ts';
import { loadSuite } from '../junit/suites.ts';

/** The load run as JUnit XML: the same suite certify writes for its load stage. */
export function loadJunit(report: LoadReport): string {
  return renderJunitXml(`fleetproof load ${report.run_id}`, [loadSuite(report)], spanSeconds(report.started_at, report.finished_at));
}

export async function writeLoadReport(dir: string, report: LoadReport): Promise<{ json: string; html: string; markdown: string }> {
  const files = { ...(await writeSummary(dir, report)), html: join(dir, 'report.html'), markdown: join(dir, 'report.md') };
  await writeFile(files.html, renderLoadHtml(report));
  await writeFile(files.markdown, renderLoadMarkdown(report));
  await writeFile(join(dir, 'junit.xml'), loadJunit(report));
  return files;
}
