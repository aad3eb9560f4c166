// `fleetproof report --merge DIR... [--plan FILE] [--report-dir DIR]`: one load
// report from the parts of a distributed run (one directory per k6
// instance), with percentiles from merged histograms and the thresholds
// evaluated once; with the run's shared plan, the target audited once over
// every part's routes, then the run's records retired.
// Exit 0 when every threshold, phase check and audited invariant holds, 1
// otherwise, 2 when the directories are not the parts of one run.
import { auditAndRetire } from '../load/runner/audit-and-retire.ts';
import { readRunPlan, type RunPlan } from '../load/runner/run-plan.ts';
import { MergeRefusal, mergeRuns } from '../load/merge/merge-runs.ts';
import { writeMergedReport } from '../reports/load/write-merged-report.ts';
import { parseFlags, UsageError, type FlagSpec, reportDirFlag } from './args.ts';

export const summary = 'merge the parts of a distributed load run into one report (--merge DIR...)';

export const FLAGS = {
  merge: { type: 'boolean', description: 'merge the run directories given as arguments, one per k6 instance (execution segment)' },
  'report-dir': reportDirFlag('folder for the merged report (default reports/runs/merged-<run id>)'),
  plan: {
    type: 'string',
    description: 'the shared plan of the run (fleetproof load --write-plan): audit the target over every part, then retire the run',
  },
  'keep-data': { type: 'boolean', description: "with --plan: leave the run's records as they are after the audit" },
} satisfies Record<string, FlagSpec>;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('report', summary, FLAGS, argv, { positionals: 'DIR...' });
  if (!parsed) return 0;
  const usage = (m: string) => new UsageError(`${m}`);
  if (!parsed.values.merge) throw usage('--merge is required (the only report this command makes)');
  if (parsed.positionals.length === 0) throw usage('--merge needs the run directories of the parts');
  let plan: RunPlan | undefined;
  if (parsed.values.plan !== undefined) {
    plan = await readRunPlan(parsed.values.plan);
  } else if (parsed.values['keep-data']) throw usage('--keep-data only applies with --plan');
  const outcome = await mergeRuns({
    dirs: parsed.positionals,
    writeReport: writeMergedReport,
    ...(parsed.values['report-dir'] ? { outDir: parsed.values['report-dir'] } : {}),
    ...(plan
      ? {
          audit: async (runId, journal) => {
            if (runId !== plan.run_id) throw new MergeRefusal(`the plan is of run ${plan.run_id}, the parts of run ${runId}`);
            return auditAndRetire(plan, journal, parsed.values['keep-data'] ?? false);
          },
        }
      : {}),
  });
  (outcome.exitCode === 0 ? console.log : console.error)(`fleetproof report: ${outcome.message}`);
  for (const reason of outcome.report?.reasons ?? []) console.error(`  ${reason}`);
  return outcome.exitCode;
}
