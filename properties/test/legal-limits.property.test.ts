// Every property suite over HTTP against the reference started with other
// legal limits: the model and the commands take their sizes from the limits
// the target declares, so a correct registry holds every property whatever
// legal limits it chooses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeLimits, LEGAL_LIMIT_SETTINGS, SMALLEST_LEGAL_LIMITS } from '../../conformance/test/legal-limits.ts';
import { failureReport } from '../runner/failure-report.ts';
import { runProperties } from '../runner/run-properties.ts';
import { SUITE_NAMES } from '../suites/index.ts';
import { httpTarget } from '../targets/http-target.ts';
import { startReferenceServer } from './reference-server.ts';
import { testReplay } from './support.ts';

/** Enough runs to meet every command under each setting, as many as a variant gets; the default-limit files run the suites in full. */
const RUNS = 8;

/** Between the smallest and the design's three: versions are cut in two parts, not one per capability. */
const TWO_PER_VERSION = { max_capabilities_per_version: 2 };

describe('property suites against the reference with other legal limits', () => {
  for (const limits of [...LEGAL_LIMIT_SETTINGS, TWO_PER_VERSION, SMALLEST_LEGAL_LIMITS]) {
    it(`hold with ${describeLimits(limits)}`, async () => {
      const server = await startReferenceServer({ limits });
      const target = await httpTarget({ url: server.url, key: server.key });
      try {
        const result = await runProperties({ target, suites: SUITE_NAMES, runs: RUNS, seed: 13, env: {} });
        for (const s of result.suites)
          assert.equal(
            s.status,
            'pass',
            `${describeLimits(limits)}\n${failureReport(s, testReplay('properties/test/legal-limits.property.test.ts'))}`,
          );
      } finally {
        await target.close();
        await server.close();
      }
    });
  }
});
