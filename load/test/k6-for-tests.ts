// The one rule for the tests that run real k6. With k6 on PATH they run. In
// a plain clone without it they are skipped, and `npm test` gives the reason
// once at its end. In CI (the CI variable set), which promises k6 (.ci/run
// installs the pinned build), they run and fail saying k6 is missing: a CI
// without k6 never passes on tests it did not run.
import { findK6 } from '../runner/engines.ts';

const PINNED = 'v1.3.0';

export interface K6ForTests {
  /** node:test's `skip` for a test that runs k6: false whenever it must run. */
  readonly skip: string | false;
  /** The version of the k6 on PATH, for a test about to run it; in CI without k6, the error that fails the test. */
  version(): string;
}

function inCi(): boolean {
  const ci = process.env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

export function k6ForTests(): K6ForTests {
  const version = findK6();
  return {
    skip:
      version === null && !inCi()
        ? `k6 is not on PATH (.ci/run installs the pinned ${PINNED}); the tests under real k6 did not run`
        : false,
    version: () => {
      if (version === null)
        throw new Error(`k6 is missing: CI promises the pinned k6 ${PINNED} on PATH (.ci/run installs it from ../shared/tools/k6)`);
      return version;
    },
  };
}
