// `fleetproof certify`: the main job. Conformance, the property suites and a
// load profile against one registry — the embedded reference unless --target
// is given — combined into one verdict, one report and one signed bundle.
import { runCertification } from '../certify/run-certification.ts';
import { loadSigner } from '../reports/bundle/bundle.ts';
import { ONE_CALLER } from '../conformance/runner/connection.ts';
import { VERDICT_WORDS } from '../client/verdict-words.ts';
import { parseDuration } from '../load/runner/scale-contract.ts';
import { isStoreKind } from '../reference/store/open-store.ts';
import { BREAKPOINT_PHASE } from '../load/runner/breakpoint.ts';
import { loadScaleContract } from '../load/runner/scale-contract.ts';
import { parseFlags, UsageError } from './args.ts';
import { authChoice } from './auth-flags.ts';
import { unknownName } from './suggest.ts';
import { counted } from '../client/terminal.ts';
import { startEmbeddedTarget } from './embedded-target.ts';
import { onTermination } from './orphan-watch.ts';
import { nemesisRequestOf } from './nemesis-flags.ts';
import { budgetsOf } from './budget-flag.ts';
import { variantOf } from './variant-flag.ts';

import { FLAGS, summary } from './flags/certify.ts';

/** Past this many characters a line of the verdict names a few of its clauses and leaves the list to the report. */
const TERMINAL_LINE = 240;

/** A long list of clauses (every MUST clause of a run that could not start) as a count and the first few. */
export function summarised(line: string, report: string): string {
  if (line.length <= TERMINAL_LINE) return line;
  const clauses = [...new Set(line.match(/\[[a-z0-9-]+\]/g) ?? [])];
  const head = line.slice(0, line.search(/[:(]/) + 1 || 60).trim();
  const some = clauses.slice(0, 3).join(', ');
  return `${head} ${counted(clauses.length, 'clause')} (${some}, …); each with its reason in ${report}`;
}

function durationMs(text: string): number {
  try {
    return parseDuration(text) * 1000;
  } catch (err) {
    throw new UsageError(`--faults-duration: ${(err as Error).message}`);
  }
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('certify', summary, FLAGS, argv);
  if (!parsed) return 0;
  const v = parsed.values;
  const own = v['token-cmd'] !== undefined || (v.header ?? []).length > 0;
  if (v.target !== undefined && v.key === undefined && !own)
    throw new UsageError(
      'a target needs the key it trusts (--key FILE, or FLEETPROOF_KEY) or credentials of its own (--token-cmd CMD, --header)',
    );
  if (v.target !== undefined && v.key === undefined && v['token-cmd'] === undefined) throw new UsageError(ONE_CALLER);
  if (v.target === undefined && v.key !== undefined)
    throw new UsageError(
      `a key without a target: give --target URL (or FLEETPROOF_TARGET), or leave the key out to certify the embedded reference`,
    );
  if (v.target === undefined && own)
    throw new UsageError('--token-cmd and --header authenticate against a --target; the embedded reference trusts its own key');
  if (v.target === undefined && v['keep-data'])
    throw new UsageError('--keep-data keeps records on a --target; the embedded reference and its records end with the run');
  if (!isStoreKind(v.store)) throw new UsageError(unknownName('store', v.store!, ['memory', 'postgres']));
  if (v.target !== undefined && parsed.sources.store?.from !== 'default')
    throw new UsageError('--store applies to the embedded reference only; leave it out with --target');
  if (v.target !== undefined && v.variant !== undefined)
    throw new UsageError('--variant applies to the embedded reference only; a served registry makes its own choices');
  const variant = variantOf(v.variant);
  // A ramp answers how far a registry goes, with no pass or fail at any one rate: certification qualifies at a fixed rate.
  const contract = loadScaleContract().profiles;
  const ramps = Object.keys(contract).filter((name) => contract[name]!.phases.some((p) => (p.name as string) === BREAKPOINT_PHASE));
  if (ramps.includes(v.profile!))
    throw new UsageError(
      `--profile ${v.profile} is a ramp that measures how far a registry goes, not a qualification: run it with fleetproof load --profile ${v.profile}`,
    );
  const profiles = Object.keys(contract).filter((name) => !ramps.includes(name));
  if (!profiles.includes(v.profile!)) throw new UsageError(unknownName('profile', v.profile!, profiles));
  // Read before anything starts: a key that cannot sign refuses the run now, not after every stage.
  const signer =
    v['sign-key'] === undefined
      ? undefined
      : await loadSigner(v['sign-key']).catch((err: Error) =>
          Promise.reject(new UsageError(`--sign-key ${v['sign-key']}: ${err.message}`)),
        );
  if (v.target === undefined)
    console.error('fleetproof certify: target the embedded reference (no --target, FLEETPROOF_TARGET or "target" in a config file)');
  // The embedded reference brings its own faults; their list is known once it has started.
  const nemesis = nemesisRequestOf(v, v.target === undefined ? [] : undefined);
  // A registry of the user's own: a signal still ends the run through a handler, so what runs on exit (removing
  // the load stage's plan file and its tokens) runs. The embedded target installs its own, which also stops it.
  const stopOnSignal =
    v.target !== undefined
      ? onTermination(
          async () => {},
          (line) => console.error(line),
        )
      : () => {};
  const outcome = await runCertification({
    ...(nemesis ? { nemesis } : {}),
    ...(v['faults-duration'] !== undefined ? { faultsDurationMs: durationMs(v['faults-duration']) } : {}),
    budgets: budgetsOf(v.budget),
    ...(v.target !== undefined ? { target: { url: v.target, keyPath: v.key, auth: authChoice(v) } } : {}),
    store: v.store,
    startEmbedded: (store, log) => startEmbeddedTarget(store, log, variant?.seed),
    profile: v.profile!,
    ...(v['report-dir'] !== undefined ? { out: v['report-dir'] } : {}),
    ...(signer ? { signer } : {}),
    ...(v['keep-data'] ? { keepData: true } : {}),
  });
  stopOnSignal();
  const r = outcome.result;
  const report = `${outcome.outDir}/report.md`;
  console.log(`\n${VERDICT_WORDS[r.verdict]}${r.reasons.length ? `: ${r.reasons.map((x) => summarised(x, report)).join('; ')}` : ''}`);
  for (const ground of r.grounds ?? []) console.log(summarised(ground, report));
  if (r.kept_data) console.log(`records of the conformance stage kept; retire them later with:\n  ${r.kept_data.retire}`);
  console.log(`report: ${outcome.outDir}/report.html`);
  console.log(`bundle: ${outcome.bundlePath}`);
  return outcome.exitCode;
}
