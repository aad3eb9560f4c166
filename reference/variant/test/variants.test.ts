// Conformance and every property suite against variants of the reference:
// each draws its limits and every implementation-defined choice from the
// legal range, so each is a correct registry the suites have never seen, and
// each must qualify. Three fixed seeds and one fresh seed a run; a
// failure names the seed and the line that replays it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOT_PROVOCABLE } from '../../../conformance/harness/failure.ts';
import type { Category } from '../../../conformance/harness/vocabulary.ts';
import { runConformance } from '../../../conformance/runner/run.ts';
import { startReferenceTarget } from '../../../conformance/test/reference-target.ts';
import { failureReport } from '../../../properties/runner/failure-report.ts';
import { runProperties } from '../../../properties/runner/run-properties.ts';
import { SUITE_NAMES } from '../../../properties/suites/index.ts';
import { httpTarget } from '../../../properties/targets/http-target.ts';
import { startReferenceServer } from '../../../properties/test/reference-server.ts';
import { defectNamed } from '../../defects/catalogue.ts';
import { describeVariant, drawVariant } from '../draw-variant.ts';
import { FIXED_VARIANT_SEEDS, freshVariantSeed, replayVariant } from './seeds.ts';

/** One defect the store decides and one the HTTP layer does, with the category that shows each. */
const DEFECTS: ReadonlyArray<[string, Category]> = [
  ['settle-skip-fence', 'settlement'],
  ['tenant-from-body', 'auth-and-isolation'],
];

/** Runs per property suite and variant: enough to meet every command, few enough for four variants. */
const RUNS = 8;

const fresh = freshVariantSeed();
console.log(`variant seed ${fresh} (replay: ${replayVariant(fresh)})`);
const seeds = process.env['FLEETPROOF_VARIANT'] ? [fresh] : [...FIXED_VARIANT_SEEDS, fresh];

// A conformance run mostly waits out its slow cases; the property runs compute. Side by side, the
// waiting of one overlaps the computing of another.
describe('the suites qualify every variant of the reference', { concurrency: true }, () => {
  for (const seed of seeds) {
    const about = `${describeVariant(drawVariant(seed))}\nreplay: ${replayVariant(seed)}`;

    it(`conformance qualifies variant ${seed}`, async () => {
      const target = await startReferenceTarget({ variant: seed, silent: true });
      try {
        const outcome = await runConformance({ config: target.config(), signingKey: target.key });
        const result = outcome.result;
        assert.ok(result, `${about}\n${outcome.error}`);
        assert.equal(result.target.version.variant?.seed, seed, 'GET /version names the variant');
        const unexplained = result.cases.filter(
          (c) => c.status !== 'pass' && !(c.status === 'skip' && c.message?.startsWith(NOT_PROVOCABLE)),
        );
        assert.deepEqual(
          unexplained.map((c) => `${c.status} ${c.id}: ${c.message}`),
          [],
          about,
        );
        assert.equal(result.verdict, 'qualified', about);
      } finally {
        await target.close();
      }
    });

    if (seed === fresh) {
      // A defect and a variant are independent options: a broken variant is still a broken registry.
      for (const [defect, category] of DEFECTS) {
        it(`conformance fails variant ${seed} with the ${defect} defect`, async () => {
          const target = await startReferenceTarget({ variant: seed, defect, silent: true });
          try {
            const outcome = await runConformance({ config: target.config({ categories: [category] }), signingKey: target.key });
            assert.equal(outcome.exitCode, 1, `${about}\n${outcome.error ?? ''}`);
            const { clause } = await defectNamed(defect);
            assert.ok(
              outcome.result!.cases.some((c) => c.status === 'fail' && (c.clause === clause || c.failure_clause === clause)),
              `${about}\nno case failed [${clause}]`,
            );
          } finally {
            await target.close();
          }
        });
      }
    }

    it(`every property suite holds against variant ${seed}`, async () => {
      const server = await startReferenceServer({ variant: seed });
      const target = await httpTarget({ url: server.url, key: server.key });
      try {
        const result = await runProperties({ target, suites: SUITE_NAMES, runs: RUNS, seed, env: {} });
        for (const s of result.suites) assert.equal(s.status, 'pass', `${about}\n${failureReport(s, () => replayVariant(seed))}`);
      } finally {
        await target.close();
        await server.close();
      }
    });
  }
});
