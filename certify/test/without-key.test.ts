// `fleetproof certify --target URL --token-cmd CMD`, no --key, as a vendor
// runs it at a terminal (a real pseudo-terminal): a registry that cannot
// trust the harness's JWK set is certified on its vendor's tokens. The cases
// only the trusted key can provoke skip with that reason, in every report of
// the conformance stage (conformance/test/keyless-run.ts), the clauses they
// alone cover are named in the verdict's grounds, and the reference still
// qualifies: every stage ran on the command's tokens, each caller's printed
// once for the whole run. Each stage draws its bar with the time left,
// redrawn in place.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, it } from 'node:test';
import { underPty } from '../../client/test/pty.ts';
import { NEEDS_TRUSTED_KEY } from '../../conformance/harness/failure.ts';
import { assertKeylessConformance } from '../../conformance/test/keyless-run.ts';
import { startTokenService } from '../../conformance/test/token-command.ts';
import { startEmbeddedReference } from '../../reference/embedded-reference.ts';
import { BUNDLE_FILE, verifyBundle } from '../../reports/bundle/bundle.ts';
import { junitSchemaProblems } from '../../reports/junit/test/junit-xsd.ts';
import type { CertificationResult } from '../../reports/schemas/certification-result.ts';
import { rederiveVerdict } from '../verdict.ts';
import { BIN, CERTIFY_MS, ENV, stage } from './certify-output.ts';
import { assertEveryStagePassed } from './qualified-run.ts';

const root = await mkdtemp(join(tmpdir(), 'fleetproof-certify-without-key-'));
after(() => rm(root, { recursive: true, force: true }));

/** PATH without k6: the load stage then runs on the Node runner, whose bar this test reads (k6 draws its own). */
const withoutK6 = (process.env['PATH'] ?? '')
  .split(delimiter)
  .filter((dir) => dir !== '' && !existsSync(join(dir, 'k6')))
  .join(delimiter);

it(
  'on a vendor token command at a terminal: qualifies, names what only the trusted key could exercise, draws every stage',
  { timeout: CERTIFY_MS + 10_000 },
  async () => {
    const reference = await startEmbeddedReference();
    const service = await startTokenService(reference.signingKey);
    const out = join(root, 'run');
    try {
      const run = await underPty(
        [process.execPath, BIN, 'certify', '--target', reference.url, '--token-cmd', service.tokenCmd, '--report-dir', out],
        {
          env: { ...ENV, PATH: withoutK6 },
          timeoutMs: CERTIFY_MS,
        },
      );
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, /^QUALIFIED\r?$/m);
      const r = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as CertificationResult;
      assert.deepEqual(r.reasons, []);
      assertEveryStagePassed(r);
      // The stages share the command's tokens (an hour each): one per caller in the whole run.
      const asked = [...service.issuedPerCaller()].filter(([, n]) => n > 1);
      assert.deepEqual(asked, [], 'callers whose token the command printed more than once');
      assert.ok(service.issuedPerCaller().has('registry:admin '), 'the preflight asked for the roles the run uses');
      await assertKeylessConformance(join(out, 'conformance'));
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

      // What the terminal showed: a bar per stage, redrawn in place, and only what did not hold listed.
      const redrawn = (line: string) => new RegExp(`\\r\\x1b\\[J${line}`);
      const bar = '\\[[=>-]{20}\\]';
      assert.match(stage(run.output, 'conformance'), redrawn(`${bar} +\\d+/\\d+ .*, ETA \\d+`), 'conformance');
      const properties = stage(run.output, 'properties');
      assert.match(properties, redrawn(`${bar} \\d/8 properties {2}\\d pass, 0 fail, 0 error.*, ETA \\d+`), 'properties');
      assert.match(properties, /\[={20}\] 8\/8 properties {2}8 pass/, 'the properties bar ends full');
      const faults = stage(run.output, 'faults');
      assert.match(faults, redrawn(`${bar} round 1 {2}\\d/8 properties {2}\\d+ faults? so far.*, ETA \\d+`), 'faults');
      assert.match(faults, /\r\x1b\[Jnemesis: proxy fault\r?\n/, 'the nemesis’s events above the bar');
      assert.match(stage(run.output, 'load'), /\r\x1b\[J.*\r?\n {2}\S+ +\[[=>-]{20}\] +\d+%/, 'load');
      assert.doesNotMatch(run.output, /^(\[\d+\/\d+\] )?pass /m, 'what holds is counted, not listed');
    } finally {
      await service.close();
      await reference.close();
    }
  },
);
