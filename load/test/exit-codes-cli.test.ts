// The exit codes of a whole `fleetproof load` process, as a pipeline sees
// them: 99 when the run was correct but crossed a threshold (k6's code), 1
// when the audit found a violation, 2 when the run could not run (here its
// engine crashed). The registry is the reference in this process; the load
// is a child process of the real command line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { openDefectiveStore } from '../../reference/defects/defective.ts';
import { CRASHING_K6, startFront } from './front.ts';
import { OVERBOOKING_SETS, startTarget } from './in-process-target.ts';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));

function fleetproofLoad(args: string[], path = process.env['PATH']): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FLEETPROOF_') || k.startsWith('FLEETPROOF_TEST'))),
    PATH: path,
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'load', '--profile', 'smoke', '--quiet', ...args], { env, timeout: 240_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('fleetproof load exits', { concurrency: true }, () => {
  it('99 when only a threshold was crossed', async () => {
    const target = await startTarget(new MemoryStore());
    // The retry storm's first settlement of each action reaches the registry, which releases it; its answer comes back 202, which the
    // phase counts as unexpected and checks nothing else by. Later settlements (of the admitted retries) are answered as they are.
    const settled = new Set<string>();
    const front = await startFront(target.url, (req) => {
      const first = req.method === 'POST' && /-storm-\d+-r-\d+\/settlement$/.test(req.url ?? '') && !settled.has(req.url!);
      if (first) settled.add(req.url!);
      return first ? { status: 202 } : null;
    });
    try {
      const run = await fleetproofLoad([
        '--target',
        front.url,
        '--key',
        target.keyPath,
        '--phases',
        'retry_storm',
        '--engine',
        'node',
        '--out',
        join(target.dir, 'out'),
      ]);
      assert.equal(run.code, 99, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stderr, /threshold unexpected responses \(fleetproof_unexpected_responses count==0\) failed/);
      const summary = JSON.parse(await readFile(join(target.dir, 'out', 'summary.json'), 'utf8')) as {
        verdict: string;
        reasons: string[];
        audit: { ok: boolean };
      };
      assert.deepEqual([summary.verdict, summary.audit.ok], ['fail', true], 'a threshold, not a defect');
      assert.ok(
        summary.reasons.every((r) => r.startsWith('threshold ')),
        summary.reasons.join('\n'),
      );
    } finally {
      await front.close();
      await target.close();
    }
  });

  it('1 when the audit finds a violation', async () => {
    const target = await startTarget(await openDefectiveStore('capacity-outside-lock', 'memory'));
    try {
      const sets = OVERBOOKING_SETS.flatMap((s) => ['--set', s]);
      const load = () =>
        fleetproofLoad([
          '--target',
          target.url,
          '--key',
          target.keyPath,
          ...sets,
          '--phases',
          'concurrent_routes',
          '--engine',
          'node',
          '--out',
          join(target.dir, 'out'),
        ]);
      // The overbooking shows only when resolves interleave. On a busy machine a run may overbook nothing and
      // leave a check unjudged (exit 2, rightly): it says nothing about the code of a violation, so it runs again.
      let run = await load();
      for (let again = 0; again < 2 && run.code === 2 && /not judged/.test(run.stderr); again++) run = await load();
      assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stderr, /NON-CONFORMANT/);
      assert.match(run.stderr, /audit: no replica was ever seen/);
    } finally {
      await target.close();
    }
  });

  it('2 when the run could not run: the engine crashed', async () => {
    const target = await startTarget(new MemoryStore());
    const bin = await mkdtemp(join(tmpdir(), 'fleetproof-fake-k6-'));
    try {
      await writeFile(join(bin, 'k6'), CRASHING_K6);
      await chmod(join(bin, 'k6'), 0o755);
      const run = await fleetproofLoad(
        [
          '--target',
          target.url,
          '--key',
          target.keyPath,
          '--phases',
          'concurrent_routes',
          '--engine',
          'k6',
          '--out',
          join(target.dir, 'out'),
        ],
        `${bin}:${process.env['PATH']}`,
      );
      assert.equal(run.code, 2, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stderr, /^fleetproof load: COULD NOT RUN: /m);
      assert.match(run.stderr, /the load engine failed: k6 exited with/);
    } finally {
      await rm(bin, { recursive: true, force: true });
      await target.close();
    }
  });
});
