// Tokens the target will not take are a fault of the setup, never a verdict on
// the registry. A key it does not trust ends the run at preflight: exit 2 and
// the preflight's one line (cause and fix), before any suite runs. A target
// that starts refusing the run's tokens mid-run makes the suites it breaks
// `error`, not `fail`: the run could not judge (exit 2). A loopback proxy in
// front of the reference turns after a number of requests.
import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeSigningKeys } from '../../contract/tokens.ts';
import { runPropertiesCommand } from '../runner/properties-command.ts';
import type { ResultDocument } from '../runner/result-document.ts';
import { httpTarget } from '../targets/http-target.ts';
import { fleetproofProperties } from './cli-process.ts';
import { startReferenceServer, type ReferenceServer } from './reference-server.ts';
import { turningProxy } from './turning-proxy.ts';

describe('properties with tokens the target does not take', () => {
  let dir: string;
  let server: ReferenceServer;
  let trustedKey: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fleetproof-tokens-'));
    server = await startReferenceServer();
    trustedKey = join(dir, 'trusted.jwk.json');
    await writeFile(trustedKey, JSON.stringify(server.key.jwk));
  });
  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a key the target does not trust: could not run, exit 2, the preflight line, and no suite ran', async () => {
    const untrusted = await writeSigningKeys(join(dir, 'untrusted'));
    const out = join(dir, 'untrusted-run');
    const run = await fleetproofProperties([
      '--target',
      server.url,
      '--key',
      untrusted.signingKeyPath,
      '--suite',
      'pinned-routes',
      '--runs',
      '2',
      '--out',
      out,
    ]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    // Where the target and key came from, then the one line that ends the run.
    const lines = run.stderr
      .trim()
      .split('\n')
      .filter((l) => l.includes('could not run'));
    assert.equal(lines.length, 1, run.stderr);
    assert.ok(run.stderr.trim().endsWith(lines[0]!), run.stderr);
    assert.match(
      lines[0]!,
      /^fleetproof properties: could not run: the target refused a token signed with kid=\S+ \(role [^)]+\): configure it to trust \S+ \(audience \S+\) \[FP_ERR_PREFLIGHT\]$/,
    );
    assert.doesNotMatch(run.stdout, /pinned-routes|NON-CONFORMANT|counterexample/);
    await assert.rejects(access(join(out, 'result.json')), 'nothing that reads as a verdict is written');
  });

  it('a target that starts refusing tokens mid-run: the suite is an error, not a counterexample, and the run exits 2', async (t) => {
    t.mock.method(console, 'log', () => {});
    // Past the preflight and the seed of the first run, inside its commands.
    const front = await turningProxy(server.url, 120);
    const out = join(dir, 'turned');
    try {
      const http = { url: front.url, key: trustedKey, requestTimeoutMs: 2000 };
      const code = await runPropertiesCommand({
        openTarget: () => httpTarget(http),
        kind: 'http',
        http,
        runs: 5,
        seed: '3',
        path: undefined,
        suites: ['pinned-routes', 'stale-cursor'],
        out,
        argv: [],
      });
      const doc = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as ResultDocument;
      assert.deepEqual([code, doc.verdict, doc.suites.map((s) => s.status)], [2, 'error', ['error', 'error']]);
      for (const s of doc.suites)
        assert.match(
          s.error ?? '',
          /^no verdict: after this suite the target refused a token signed with kid=\S+ .*: configure it to trust /,
          `${s.name}: ${s.error}`,
        );
    } finally {
      await front.close();
    }
  });
});
