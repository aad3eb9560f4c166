// The run's document as data: result.json in the run directory. Its rendered
// forms (JUnit, Markdown, HTML) are the caller's choice, since reports/ sits
// above conformance/; a caller passes them in as a writer.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConformanceResult } from './result.ts';

export const RESULT_FILE = 'result.json';

/** Writes a run's reports into `dir`; returns the files written. */
export type ResultWriter = (result: ConformanceResult, dir: string) => Promise<string[]>;

export const writeResult: ResultWriter = async (result, dir) => {
  await mkdir(dir, { recursive: true });
  const file = join(dir, RESULT_FILE);
  await writeFile(file, JSON.stringify(result, null, 2) + '\n');
  return [file];
};
