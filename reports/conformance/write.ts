// Writes every report of a run into one directory. result.json is the
// source; the others are rendered from it, so they never disagree.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import { writeResult } from '../../conformance/runner/write-result.ts';
import { renderHtml } from './render-html.ts';
import { renderJunitXml } from '../junit/junit.ts';
import { conformanceSuites } from './junit-suites.ts';
import { renderMarkdown } from './render-md.ts';

export async function writeConformanceReports(result: ConformanceResult, dir: string): Promise<string[]> {
  const written = await writeResult(result, dir);
  const files: Array<[string, string]> = [
    ['junit.xml', renderJunitXml(`fleetproof conform ${result.run_id}`, conformanceSuites(result), result.timings.duration_ms / 1000)],
    ['report.md', renderMarkdown(result)],
    ['report.html', renderHtml(result)],
  ];
  await Promise.all(files.map(([name, text]) => writeFile(join(dir, name), text)));
  return [...written, ...files.map(([name]) => join(dir, name))];
}
