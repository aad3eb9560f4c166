// `fleetproof certify --target URL --token-cmd CMD`, no --key: a registry that
// cannot trust the harness's JWK set is certified on its vendor's tokens. The
// cases only the trusted key can provoke skip with that reason, the clauses
// they alone cover are named in the verdict's grounds, and the reference
// still qualifies: every stage ran on the command's tokens, each caller's
// printed once for the whole run.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { NEEDS_TRUSTED_KEY } from '../../conformance/harness/failure.ts';
import { startTokenService } from '../../conformance/test/token-command.ts';
import { startEmbeddedReference } from '../../reference/embedded-reference.ts';
import { BUNDLE_FILE, verifyBundle } from '../../reports/bundle/bundle.ts';
import { junitSchemaProblems } from '../../reports/junit/test/junit-xsd.ts';
import { runCertification } from '../run-certification.ts';
import { rederiveVerdict } from '../verdict.ts';

const root = await mkdtemp(join(tmpdir(), 'fleetproof-certify-without-key-'));
after(() => rm(root, { recursive: true, force: true }));

describe('fleetproof certify with --token-cmd and no --key', () => {
  // Four stages on a vendor's token command, which a busy machine runs slowly: more than the default time of a test.
  it('qualifies the reference, naming the MUST clauses only the trusted key could exercise', { timeout: 540_000 }, async () => {
    const reference = await startEmbeddedReference();
    const service = await startTokenService(reference.signingKey);
    const out = join(root, 'run');
    try {
      const outcome = await runCertification({
        target: { url: reference.url, auth: { tokenCommand: service.tokenCmd } },
        out,
        log: (line) => console.log(line),
      });
      const r = outcome.result;
      assert.deepEqual(r.reasons, []);
      assert.deepEqual([outcome.exitCode, r.verdict], [0, 'qualified']);
      assert.deepEqual(
        r.stages.map((s) => [s.name, s.status]),
        [
          ['conformance', 'passed'],
          ['properties', 'passed'],
          ['faults', 'passed'],
          ['load', 'passed'],
        ],
      );
      // The stages share the command's tokens (an hour each): one per caller in the whole run.
      const asked = [...service.issuedPerCaller()].filter(([, n]) => n > 1);
      assert.deepEqual(asked, [], 'callers whose token the command printed more than once');
      const skips = r.stages.find((s) => s.name === 'conformance')!.skips ?? [];
      assert.ok(skips.length > 0 && skips.every((k) => k.reason.startsWith(`${NEEDS_TRUSTED_KEY}: `)), JSON.stringify(skips));
      const ground = r.grounds?.find((g) => g.startsWith('MUST clauses no check exercised: ')) ?? '';
      assert.match(ground, /(\[auth-time\], \[auth-audience\]|\[auth-audience\], \[auth-time\]) \(/, ground);
      assert.ok(ground.includes(`] (${NEEDS_TRUSTED_KEY})`), ground);
      const md = await readFile(join(out, 'report.md'), 'utf8');
      assert.ok(md.includes(ground), 'the report states the grounds');
      for (const k of skips) assert.ok(md.includes(k.subject), `report.md lists the skip of ${k.subject}`);
      // Every junit.xml of the run, the certification's and each stage's, is valid under junit-10.xsd.
      for (const file of ['junit.xml', 'conformance/junit.xml', 'properties/junit.xml', 'load/junit.xml']) {
        assert.deepEqual(await junitSchemaProblems(await readFile(join(out, file), 'utf8'), file), [], file);
      }
      const verified = await verifyBundle(join(out, BUNDLE_FILE), rederiveVerdict);
      assert.deepEqual([verified.problems, verified.verdict], [[], 'qualified'], 'the stored results give the same verdict');
    } finally {
      await service.close();
      await reference.close();
    }
  });
});
