// `fleetproof report --merge DIR... [--plan FILE] [--report-dir DIR]`: one load
// report from the parts of a distributed run (one directory per k6
// instance), with percentiles from merged histograms and the thresholds
// evaluated once; with the run's shared plan, the target audited once over
// every part's routes, then the run's records retired.
// Exit 0 when every threshold, phase check and audited invariant holds, 1
// otherwise, 2 when the directories are not the parts of one run.
// `fleetproof report --compare A B [--report-dir DIR]`: what changed from run A to
// run B (any two run folders: certify, conform, properties, load). Exit 0
// when nothing regressed, 99 when a regression is flagged (a threshold
// crossed, as load's; 1 is kept for a registry breaking the contract), 2
// when a folder holds no result.
import { auditAndRetire } from '../load/runner/audit-and-retire.ts';
import { readRunPlan, type RunPlan } from '../load/runner/run-plan.ts';
import { MergeRefusal, mergeRuns } from '../load/merge/merge-runs.ts';
import { writeMergedReport } from '../reports/load/write-merged-report.ts';
import { writeComparison } from '../reports/compare/write-comparison.ts';
import { commandLine } from '../client/rerun.ts';
import { parseFlags, UsageError } from './args.ts';

import { FLAGS, POSITIONALS, summary } from './flags/report.ts';

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('report', summary, FLAGS, argv, { positionals: POSITIONALS });
  if (!parsed) return 0;
  const usage = (m: string) => new UsageError(`${m}`);
  if (parsed.values.compare) {
    if (parsed.values.merge || parsed.values.plan !== undefined || parsed.values['keep-data'])
      throw usage('--compare takes two run directories and --report-dir only');
    if (parsed.positionals.length !== 2) throw usage(`--compare needs two run directories, A then B, not ${parsed.positionals.length}`);
    const compared = await writeComparison(parsed.positionals[0]!, parsed.positionals[1]!, parsed.values['report-dir']);
    (compared.exitCode === 2 ? console.error : console.log)(`fleetproof report: ${compared.message}`);
    return compared.exitCode;
  }
  if (!parsed.values.merge) throw usage('give --merge DIR... or --compare A B');
  if (parsed.positionals.length === 0) throw usage('--merge needs the run directories of the parts');
  let plan: RunPlan | undefined;
  if (parsed.values.plan !== undefined) {
    plan = await readRunPlan(parsed.values.plan);
  } else if (parsed.values['keep-data']) throw usage('--keep-data only applies with --plan');
  const outcome = await mergeRuns({
    dirs: parsed.positionals,
    writeReport: writeMergedReport,
    rerun: commandLine('report', [
      '--merge',
      ...parsed.positionals,
      ...(parsed.values.plan !== undefined ? ['--plan', parsed.values.plan] : []),
      ...(parsed.values['keep-data'] ? ['--keep-data'] : []),
    ]),
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
  (outcome.exitCode === 0 ? console.log : console.error)(
    `fleetproof report: ${outcome.message}${outcome.code ? ` [${outcome.code}]` : ''}`,
  );
  for (const reason of outcome.report?.reasons ?? []) console.error(`  ${reason}`);
  return outcome.exitCode;
}
