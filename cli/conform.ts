// `fleetproof conform`: certifies a registry over HTTP with the conformance
// suite. Flags win over FLEETPROOF_* environment variables, which win over a
// JSON config file (args.ts). Exit 0 qualified, 1 non-conformant, 2 could not run.
import { resolveConfig, type ConfigInput } from '../conformance/runner/config.ts';
import { terminalProgress } from '../conformance/runner/progress.ts';
import { inSelection, runConformance } from '../conformance/runner/run.ts';
import { retireKept } from '../conformance/runner/retire-kept.ts';
import { EXIT } from '../client/errors.ts';
import { CATEGORY_NAMES } from '../conformance/harness/vocabulary.ts';
import { writeConformanceReports } from '../reports/conformance/write.ts';
import { loadCases } from '../conformance/runner/load-cases.ts';
import { parseFlags, UsageError } from './args.ts';
import { didYouMean, unknownName } from './suggest.ts';
import { authChoice } from './auth-flags.ts';
import { budgetsOf } from './budget-flag.ts';

import { FLAGS, summary } from './flags/conform.ts';

/** The cases this copy of the suite holds, as --list prints them (those of the selection, when one is given). */
async function caseList(): Promise<{ id: string; clause: string; category: string; description: string }[]> {
  return (await loadCases()).map((l) => ({
    id: l.id,
    clause: l.case?.clause ?? '',
    category: l.case?.category ?? l.id.split('/')[0]!,
    description: l.case?.description ?? '',
  }));
}

function printList(cases: Awaited<ReturnType<typeof caseList>>, json: boolean): void {
  if (json) return console.log(JSON.stringify(cases, null, 2));
  const width = Math.max(...cases.map((c) => c.id.length));
  console.log(cases.map((c) => `${c.id.padEnd(width)}  [${c.clause}]  ${c.category}`).join('\n'));
}

/** Unknown case ids and categories, each with the nearest known one, before anything starts. */
async function checkSelection(cases: string[], categories: string[]): Promise<void> {
  for (const category of categories)
    if (!(CATEGORY_NAMES as readonly string[]).includes(category)) throw new UsageError(unknownName('category', category, CATEGORY_NAMES));
  if (cases.length === 0) return;
  const known = (await loadCases()).map((l) => l.id);
  for (const id of cases)
    if (!known.includes(id))
      throw new UsageError(`no such case ${id}${didYouMean(id, known)}; \`fleetproof conform --list\` prints every case id`);
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('conform', summary, FLAGS, argv);
  if (!parsed) return 0;
  const v = parsed.values;
  if (v.json && !v.list) throw new UsageError('--json goes with --list');
  await checkSelection(v.case ?? [], v.category ?? []);
  if (v.list) {
    // The cases a run with the same --category and --case would select.
    const selected = inSelection({ categories: v.category ?? [], cases: v.case ?? [] });
    printList(
      (await caseList()).filter((c) => selected(c.id)),
      v.json ?? false,
    );
    return EXIT.qualified;
  }
  const flags: ConfigInput = {
    target: v.target,
    keyFile: v.key,
    out: v['report-dir'],
    categories: v.category,
    cases: v.case,
    features: v.features,
    concurrency: v.concurrency,
    timeoutMs: v['timeout-ms'],
    audience: v.audience,
    budgets: budgetsOf(v.budget),
  };
  const config = resolveConfig(flags);
  if (v.retire !== undefined) {
    if (v['keep-data'] || v.case?.length || v.category?.length) throw new UsageError('--retire takes only the target and its credentials');
    const retired = await retireKept(v.retire, config, { auth: authChoice(v) });
    (retired.exitCode === 0 ? console.log : console.error)(`fleetproof conform: ${retired.message}`);
    return retired.exitCode;
  }
  const outcome = await runConformance({
    config,
    auth: authChoice(v),
    progress: terminalProgress(process.stdout),
    writeReports: writeConformanceReports,
    keepData: v['keep-data'] ?? false,
  });
  if (outcome.result?.kept_data) console.log(`records kept; retire them later with:\n  ${outcome.result.kept_data.retire}`);
  if (outcome.exitCode === EXIT.couldNotRun && outcome.error !== undefined)
    console.error(`fleetproof conform: could not run: ${outcome.error}${outcome.code ? ` [${outcome.code}]` : ''}`);
  return outcome.exitCode;
}
