// `npm run conform:repeat [-- RUNS]`: the conformance self-check against the
// reference (memory store, in-process) RUNS times in a row (default 20),
// printing the errors and failures of each run and the total. A correct
// registry must never fail and a harness-side error must be rare; this is
// how that is measured. Exit 0 only when every run qualified with no error.
import { resolveConfig } from '../conformance/runner/config.ts';
import { runConformance } from '../conformance/runner/run.ts';
import { startEmbeddedReference } from '../reference/embedded-reference.ts';

const runs = Number(process.argv[2] ?? '20');
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: npm run conform:repeat [-- RUNS]');
  process.exit(2);
}

const reference = await startEmbeddedReference({ logErrors: false });
let errors = 0;
let failures = 0;
try {
  for (let i = 1; i <= runs; i++) {
    const started = Date.now();
    const outcome = await runConformance({
      config: resolveConfig({ target: reference.url, keyFile: '(in memory)' }),
      signingKey: reference.signingKey,
      writeReports: false,
    });
    const cases = outcome.result?.cases ?? [];
    const bad = cases.filter((c) => c.status === 'error' || c.status === 'fail');
    const runErrors = outcome.result ? bad.filter((c) => c.status === 'error').length : 1;
    const runFailures = bad.filter((c) => c.status === 'fail').length;
    errors += runErrors;
    failures += runFailures;
    console.log(
      `run ${String(i).padStart(2)}/${runs}: ${outcome.result?.verdict ?? `could not run: ${outcome.error}`}, ${runErrors} error(s), ${runFailures} failure(s), ${cases.length} cases in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const c of bad) console.log(`  ${c.status} ${c.id}: ${c.message}`);
  }
} finally {
  await reference.close();
}
console.log(`conform:repeat: ${runs} run(s), ${errors} error(s), ${failures} failure(s) in total`);
process.exitCode = errors === 0 && failures === 0 ? 0 : 1;
