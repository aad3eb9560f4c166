// Writes every report of a run into one directory. result.json is the
// source; the others are rendered from it, so they never disagree.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import { renderHtml } from './render-html.ts';
import { renderJunit } from './render-junit.ts';
import { renderMarkdown } from './render-md.ts';

export const REPORT_FILES = ['result.json', 'junit.xml', 'report.md', 'report.html'] as const;

export async function writeConformanceReports(result: ConformanceResult, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ['result.json', JSON.stringify(result, null, 2) + '\n'],
    ['junit.xml', renderJunit(result)],
    ['report.md', renderMarkdown(result)],
    ['report.html', renderHtml(result)],
  ];
  await Promise.all(files.map(([name, text]) => writeFile(join(dir, name), text)));
  return files.map(([name]) => join(dir, name));
}
