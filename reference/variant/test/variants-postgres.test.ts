// Conformance against variants of the reference on the PostgreSQL store, on
// a fresh database each (npm test starts an embedded PostgreSQL when PG_URL
// is unset): the store's share of the choices (revision step, tie-break,
// fence tokens, cursors, page fill, circuit reads, rewrite answers) runs
// through SQL and its own drafts, so it is judged apart from the memory store.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOT_PROVOCABLE } from '../../../conformance/harness/failure.ts';
import { runConformance } from '../../../conformance/runner/run.ts';
import { startReferenceTarget } from '../../../conformance/test/reference-target.ts';
import { describeVariant, drawVariant } from '../draw-variant.ts';
import { freshVariantSeed, replayVariant } from './seeds.ts';

const skip = process.env['PG_URL']
  ? false
  : 'PG_URL is not set: run through `npm test`, which starts an embedded PostgreSQL and exports PG_URL';

const FILE = 'reference/variant/test/variants-postgres';

/**
 * A fixed seed that makes every store choice the other way from the reference
 * (revision step, cursors, page fill, circuit reads, rewrites, the instance
 * named among equals, rule order, fence tokens) at a page size of 6, and a fresh one.
 */
const POSTGRES_SEEDS = [113];

describe('conformance qualifies variants of the reference on the PostgreSQL store', { skip }, async () => {
  const { postgresTestDatabases } = await import('../../store/postgres/test/test-database.ts');
  const databases = postgresTestDatabases();
  const fresh = freshVariantSeed();
  console.log(`variant seed ${fresh} (replay: ${replayVariant(fresh, FILE)})`);
  const seeds = process.env['FLEETPROOF_VARIANT'] ? [fresh] : [...POSTGRES_SEEDS, fresh];

  for (const seed of seeds) {
    const variant = drawVariant(seed);
    const about = `${describeVariant(variant)}\nreplay: ${replayVariant(seed, FILE)}`;
    it(`qualifies variant ${seed}`, async () => {
      const { max_body_bytes: _body, ...storeLimits } = variant.limits;
      const { store } = await databases.openStore({ limits: storeLimits, choices: variant.choices });
      const target = await startReferenceTarget({ store, variant: seed, silent: true });
      try {
        const outcome = await runConformance({ config: target.config(), signingKey: target.key, writeReports: false });
        const result = outcome.result;
        assert.ok(result, `${about}\n${outcome.error}`);
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
  }
});
