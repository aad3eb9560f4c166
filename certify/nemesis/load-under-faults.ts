// `fleetproof load --nemesis`: the load run with the nemesis between the
// harness and the registry, its faults ended before the audit, then judged
// by load's rules for a run under faults (load/runner/judge-under-faults.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VERDICT_WORDS } from '../../client/verdict-words.ts';
import { readJournal } from '../../load/runner/journal.ts';
import { faultsLines, judgeUnderFaults } from '../../load/runner/judge-under-faults.ts';
import { loadVerdictKey } from '../../load/runner/load-report.ts';
import { runLoad, type LoadRunOptions, type LoadRunOutcome } from '../../load/runner/run-load.ts';
import { writeSummary } from '../../load/runner/write-summary.ts';
import { withNemesis, type NemesisRequest } from './open-nemesis.ts';
import { nemesisFlags, replayFlags } from './nemesis-summary.ts';

/** The journal's fact that the dataset is seeded: the load proper begins. */
const SEED_DONE = /"k":"phase","phase":"seed"/;
/** Between the registry answering /ready again and the sweep: a moment for work it queued to land. */
const RECOVERY_WINDOW_MS = 1000;

/**
 * A whole load run under the nemesis: the faults end (healed, the registry
 * ready, a recovery window) before the runner settles what the run holds and
 * audits it; then the run is judged by that audit and its report rewritten.
 */
export async function runLoadUnderFaults(
  options: LoadRunOptions,
  nemesis: NemesisRequest,
  log: (line: string) => void,
): Promise<LoadRunOutcome> {
  const beforeAudit = (endFaults: () => Promise<void>) => async () => {
    await endFaults();
    await new Promise((resolve) => setTimeout(resolve, RECOVERY_WINDOW_MS));
  };
  // The preflight, the plan and the seeding of the dataset are set-up, not under test: faults start once the seed is journalled.
  let seeded = () => {};
  const armed = new Promise<void>((resolve) => (seeded = resolve));
  let watching: NodeJS.Timeout | undefined;
  const watch = (journalPath: string) => {
    watching = setInterval(
      () =>
        void readFile(journalPath, 'utf8').then(
          (text) => SEED_DONE.test(text) && (clearInterval(watching), seeded()),
          () => {},
        ),
      100,
    );
  };
  const under = await withNemesis(
    nemesis,
    options.target,
    log,
    (url, endFaults) =>
      runLoad({
        ...options,
        // The report names the registry, not the proxy in front of it, and the nemesis it ran under.
        target: url,
        rerunTarget: options.target,
        rerunFlags: nemesisFlags(nemesis),
        onLoadStart: watch,
        beforeAudit: beforeAudit(endFaults),
      }),
    armed,
  ).finally(() => clearInterval(watching));
  const outcome = under.value;
  if (!outcome.report || !outcome.outDir) return outcome;
  const journal = await readJournal(join(outcome.outDir, 'journal.ndjson'));
  const judged = judgeUnderFaults(
    outcome.report,
    under.figures,
    replayFlags(nemesis.kinds, nemesis.schedule, nemesis.seed),
    journal.indeterminate.length,
    { bands: under.bands, traffic: under.proxy?.traffic() ?? [] },
  );
  await (options.writeReport ?? writeSummary)(outcome.outDir, judged);
  for (const line of faultsLines(judged.faults)) log(line);
  const exitCode = judged.verdict === 'pass' ? 0 : judged.verdict === 'fail' ? 1 : 2;
  return {
    ...outcome,
    exitCode,
    report: judged,
    message: outcome.message.replace(/^[^:]+:/, `${VERDICT_WORDS[loadVerdictKey(judged.verdict)]} under faults:`),
  };
}
