// `fleetproof properties`: the property suites (properties/) against the
// reference's memory or PostgreSQL store, or any registry over HTTP. Exit 0
// when every property holds, 1 on a counterexample, 2 when the suites could
// not run or judge. Every failure prints its seed, path and shrunk script and
// is written to result.json, so `--seed S --path P` replays it exactly.
import { variantOf } from './variant-flag.ts';
import { defectiveOpeners, defectOf } from './defect-flag.ts';
import { SUITE_NAMES } from '../properties/suites/index.ts';
import { hasOwnCredentials } from '../client/credential-sources.ts';
import { parseFlags, UsageError } from './args.ts';
import { authChoice } from './auth-flags.ts';
import { unknownName } from './suggest.ts';
import { nemesisRequestOf } from './nemesis-flags.ts';
import { budgetsOf } from './budget-flag.ts';
import type { CallFaults } from '../properties/targets/http/call-outcomes.ts';

import { FLAGS, summary } from './flags/properties.ts';

function positiveInteger(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) < 1) throw new UsageError(`--${flag} must be a positive integer, not ${text}`);
  return Number(text);
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('properties', summary, FLAGS, argv);
  if (!parsed) return 0;
  const v = parsed.values;
  const usage = (m: string) => new UsageError(`${m}`);
  if (v.target !== undefined && v.store !== undefined) throw usage('--store and --target are exclusive');
  if (v.target !== undefined && !/^https?:\/\//.test(v.target)) throw usage('--target must be an http(s) URL');
  const auth = authChoice(v);
  if (v.target !== undefined && v.key === undefined && !hasOwnCredentials(auth))
    throw usage('--target needs --key FILE (or --token-cmd CMD, or --header for static credentials)');
  if (v.target !== undefined && v.defect !== undefined)
    throw usage('--defect applies to the in-process stores; a served registry takes its defect itself (serve --defect)');
  const store = v.store ?? 'memory';
  if (v.target === undefined && store !== 'memory' && store !== 'postgres')
    throw usage(unknownName('store', store, ['memory', 'postgres']));
  for (const s of v.suite ?? []) if (!(SUITE_NAMES as readonly string[]).includes(s)) throw usage(unknownName('suite', s, SUITE_NAMES));
  if (v['pg-url'] !== undefined && store !== 'postgres') throw usage('--pg-url needs --store postgres');
  if (v.target !== undefined && v.variant !== undefined)
    throw usage('--variant applies to the in-process stores; a served registry makes its own choices');
  const variant = variantOf(v.variant);
  const { runPropertiesCommand } = await import('../properties/runner/properties-command.ts');
  const defect = await defectOf(v.defect);
  if (defect && !defect.stores.includes(store as 'memory' | 'postgres'))
    throw usage(`--defect ${defect.name} (${defect.layer}) runs on ${defect.stores.join(' and ')}, not the ${store} store`);
  const defective = defect ? await defectiveOpeners(defect) : null;
  const http =
    v.target !== undefined
      ? { url: v.target, key: v.key ?? null, auth, requestTimeoutMs: positiveInteger('request-timeout-ms', v['request-timeout-ms'])! }
      : null;
  const pgUrl = v['pg-url'] ?? process.env['PG_URL'];
  const nemesis = nemesisRequestOf(v, undefined, v.seed !== undefined && /^[0-9]{1,9}$/.test(v.seed) ? Number(v.seed) : undefined);
  if (nemesis && !http) throw usage('--nemesis acts on a registry over HTTP: give --target');
  const runWith = async (url: string | null, callFaults?: CallFaults, underFaults?: { fell: () => boolean; started: () => void }) =>
    runPropertiesCommand({
      openTarget: async (runId, stop) => {
        if (http)
          return (await import('../properties/targets/http-target.ts')).httpTarget({
            ...http,
            url: url ?? http.url,
            runId,
            signal: stop,
            ...(callFaults ? { faults: callFaults } : {}),
          });
        const { referenceMemoryTarget, referencePostgresTarget } = await import('./reference-targets.ts');
        const named = defect ? { named: `with defect ${defect.name}` } : {};
        if (store === 'postgres')
          return referencePostgresTarget({
            ...(pgUrl ? { url: pgUrl } : {}),
            variant,
            ...(defect ? { open: defective!.postgres(), ...named } : {}),
          });
        return referenceMemoryTarget({ variant, ...(defect ? { open: defective!.memory, ...named } : {}) });
      },
      http,
      kind: http ? 'http' : store === 'postgres' ? 'postgres' : 'memory',
      budgetMs: budgetsOf(v.budget).properties,
      runs: positiveInteger('runs', v.runs),
      seed: v.seed,
      path: v.path,
      suites: v.suite ?? [],
      out: v['report-dir'],
      argv,
      writeReports: (await import('../reports/properties/write.ts')).writePropertiesReports,
      ...(underFaults ? { faultsFell: underFaults.fell, suitesStarting: underFaults.started } : {}),
    });
  if (!nemesis || !http) return await runWith(null);
  const { callFaultsOf, withNemesis } = await import('../certify/nemesis/open-nemesis.ts');
  // Faults fall only once the suites start (after preflight), so a fault counted fell while they ran.
  let started!: () => void;
  const suitesStarted = new Promise<void>((resolve) => (started = resolve));
  return (
    await withNemesis(
      nemesis,
      http.url,
      (line) => console.log(line),
      (url, _end, bands, proxy, outage) =>
        runWith(url, callFaultsOf(proxy, outage), { fell: () => bands.some((b) => b.error === null), started }),
      suitesStarted,
    )
  ).value;
}
