// `fleetproof report --compare A B`: reads two run folders, compares them and
// writes the comparison (comparison.json, the source) with its two pages.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { EXIT } from '../../client/errors.ts';
import { defaultRunDir } from '../../client/run-id.ts';
import { compareRuns, RunsNotComparable, type Comparison } from './compare-runs.ts';
import { readRun, RunUnreadable } from './read-run.ts';
import { renderComparisonHtml, renderComparisonMarkdown } from './render-compare.ts';

export const COMPARISON_FILE = 'comparison.json';

export interface ComparisonOutcome {
  /**
   * 0 nothing regressed; 99 a regression was flagged; 2 a folder could not be
   * read, or the two hold no result of the same kind. A regression is a
   * threshold crossed between two runs, not the registry breaking the
   * contract (exit 1 says that): each run's own verdict already has its exit.
   */
  exitCode: typeof EXIT.qualified | typeof EXIT.couldNotRun | typeof EXIT.thresholdsCrossed;
  message: string;
  outDir?: string;
  comparison?: Comparison;
}

export async function writeComparison(dirA: string, dirB: string, outDir?: string): Promise<ComparisonOutcome> {
  let comparison: Comparison;
  try {
    comparison = compareRuns(await readRun(resolve(dirA)), await readRun(resolve(dirB)));
  } catch (err) {
    if (err instanceof RunUnreadable || err instanceof RunsNotComparable) return { exitCode: EXIT.couldNotRun, message: err.message };
    throw err;
  }
  const out = outDir ?? defaultRunDir(`compare-${comparison.a.identity.run}-${comparison.b.identity.run}`);
  await mkdir(out, { recursive: true });
  await writeFile(join(out, COMPARISON_FILE), JSON.stringify(comparison, null, 2) + '\n');
  await writeFile(join(out, 'report.html'), renderComparisonHtml(comparison));
  await writeFile(join(out, 'report.md'), renderComparisonMarkdown(comparison));
  const n = comparison.regressions;
  return {
    exitCode: n > 0 ? EXIT.thresholdsCrossed : EXIT.qualified,
    message: `${n === 0 ? 'no regression' : `${n} regression(s) flagged`}; comparison in ${join(out, 'report.html')}`,
    outDir: out,
    comparison,
  };
}
