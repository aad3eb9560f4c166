// `fleetproof certify` end to end against registries that must not qualify,
// over HTTP: a registry with a broken fence is non-conformant, with the
// clause and a reproduction, and its honest signed run verifies and renders;
// an unreachable target, or one that does not trust the key, could not be
// judged. The reference's qualified run, signed and tampered with, is
// checked on the installed package's own certification
// (certify/test/qualified-run.ts, bin/test/installed-package.test.ts).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writeSigningKeys } from '../../contract/tokens.ts';
import { startDefectiveReference } from '../../reference/defects/defective.ts';
import { startEmbeddedReference } from '../../reference/embedded-reference.ts';
import { runCertification } from '../run-certification.ts';
import { assertRendersCleanly, verify } from './qualified-run.ts';

const root = await mkdtemp(join(tmpdir(), 'fleetproof-certify-'));
after(() => rm(root, { recursive: true, force: true }));
const quiet = () => {};

describe('fleetproof certify', { concurrency: true }, () => {
  it('finds a registry that settles without the fence comparison non-conformant, with the clause and a reproduction', async () => {
    const reference = await startDefectiveReference('settle-skip-fence');
    const out = join(root, 'broken');
    try {
      const outcome = await runCertification({ target: { url: reference.url, keyPath: reference.signingKeyPath }, out, log: quiet });
      assert.equal(outcome.exitCode, 1);
      assert.equal(outcome.result.verdict, 'non-conformant');
      assert.equal(outcome.result.stages[0]!.status, 'failed');
      const fence = outcome.result.failures.find((f) => f.stage === 'conformance' && f.clause === 'settle-fence');
      assert.ok(
        fence,
        `no conformance failure cites settle-fence: ${JSON.stringify(outcome.result.failures.map((f) => [f.subject, f.clause]))}`,
      );
      assert.match(fence.reproduce, new RegExp(`npx fleetproof conform --target ${reference.url} --key \\S+ --case `));
      assert.match(fence.reproduce, /POST .*\/settlement/, 'the failing exchange is shown');
      assert.ok(outcome.result.clauses.find((c) => c.id === 'settle-fence')!.status === 'fail');
      assert.ok(
        outcome.result.failures.some((f) => f.stage === 'properties' && /--seed=-?\d+ --path/.test(f.reproduce)),
        'a property counterexample comes with its seed and path',
      );
      const report = await verify(out);
      assert.deepEqual(report.problems, [], 'an honest non-conformant run verifies');
      assert.equal(report.verdict, 'non-conformant');
      await assertRendersCleanly(out);
    } finally {
      await reference.close();
    }
  });

  it('could not judge an unreachable target, and says so in a signed result', async () => {
    const { signingKeyPath, close } = await startEmbeddedReference();
    const out = join(root, 'unreachable');
    try {
      const outcome = await runCertification({ target: { url: 'http://127.0.0.1:9', keyPath: signingKeyPath }, out, log: quiet });
      assert.equal(outcome.exitCode, 2);
      assert.equal(outcome.result.verdict, 'could-not-run');
      assert.deepEqual(
        outcome.result.stages.map((s) => s.status),
        ['could-not-run', 'skipped', 'skipped', 'skipped'],
      );
      assert.deepEqual((await verify(out)).problems, []);
    } finally {
      await close();
    }
  });

  it('could not judge with a key the target does not trust: one line naming the fix, and no stage run', async () => {
    const reference = await startEmbeddedReference();
    const out = join(root, 'untrusted');
    const keys = await writeSigningKeys(join(root, 'stranger'));
    try {
      const outcome = await runCertification({ target: { url: reference.url, keyPath: keys.signingKeyPath }, out, log: quiet });
      assert.deepEqual([outcome.exitCode, outcome.result.verdict], [2, 'could-not-run']);
      assert.deepEqual(
        outcome.result.stages.map((s) => s.status),
        ['could-not-run', 'skipped', 'skipped', 'skipped'],
      );
      assert.match(
        outcome.result.stages[0]!.reasons.join('\n'),
        new RegExp(
          `^the target refused a token signed with kid=\\S+ \\(role registry:admin\\): configure it to trust ${keys.jwksPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(audience fleetproof-registry\\)$`,
        ),
      );
      assert.deepEqual(outcome.result.failures, [], 'nothing is blamed on the registry');
    } finally {
      await reference.close();
    }
  });
});
