// The load report as data: summary.json in the run directory, the document a
// later merge reads back and every renderer is given. Rendered forms are the
// caller's choice (reports/ sits above load/), passed in as a writer.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SUMMARY_FILE = 'summary.json';

/** Writes a run directory's reports; `html` is the page to point a person at, when there is one. */
export type ReportWriter<Report> = (dir: string, report: Report) => Promise<{ json: string; html?: string }>;

export async function writeSummary(dir: string, report: object): Promise<{ json: string }> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, SUMMARY_FILE);
  await writeFile(json, JSON.stringify(report, null, 2) + '\n');
  return { json };
}
