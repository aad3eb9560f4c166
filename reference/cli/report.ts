// `fleetproof report --merge DIR... [--out DIR]`: one load report from the
// parts of a distributed run (one directory per k6 instance), with
// percentiles from merged histograms and the thresholds evaluated once.
// Exit 0 when every threshold, phase check and audited invariant holds, 1
// otherwise, 2 when the directories are not the parts of one run.
import { mergeRuns } from '../../reports/merge/merge-runs.ts';
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';

export const summary = 'merge the parts of a distributed load run into one report (--merge DIR...)';

const FLAGS = {
  merge: { type: 'boolean', description: 'merge the run directories given as arguments, one per k6 instance (execution segment)' },
  out: { type: 'string', description: 'report directory (default reports/runs/merged-<run id>)' },
} satisfies Record<string, FlagSpec>;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('report', summary, FLAGS, argv, { positionals: 'DIR...' });
  if (!parsed) return 0;
  const usage = (m: string) => new UsageError(`${m}\n\n${helpText('report', summary, FLAGS, 'DIR...')}`);
  if (!parsed.values.merge) throw usage('--merge is required (the only report this command makes)');
  if (parsed.positionals.length === 0) throw usage('--merge needs the run directories of the parts');
  const outcome = await mergeRuns({ dirs: parsed.positionals, ...(parsed.values.out ? { outDir: parsed.values.out } : {}) });
  (outcome.exitCode === 0 ? console.log : console.error)(`fleetproof report: ${outcome.message}`);
  for (const reason of outcome.report?.reasons ?? []) console.error(`  ${reason}`);
  return outcome.exitCode;
}
