// `fleetproof load` exits 2 when a run cannot start: bad flags, an unknown
// profile or override, an unreadable key, an unreachable target, or
// `--engine k6` without k6.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeSigningKeys } from '../../contract/tokens.ts';
import { main } from '../../cli/main.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { runLoad } from '../runner/run-load.ts';
import { startTarget } from './in-process-target.ts';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('a run that cannot start exits 2 and says why', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-load-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const { signingKeyPath } = await writeSigningKeys(dir);
  const target = `http://127.0.0.1:${await closedPort()}`;
  const base = { target, keyPath: signingKeyPath, engine: 'node' as const, quiet: true };

  const unreachable = await runLoad({ ...base, profile: 'smoke' });
  assert.deepEqual(
    [unreachable.exitCode, unreachable.message, unreachable.code],
    [2, `the target ${target} does not answer (ECONNREFUSED): start it, or point --target at its base URL`, 'FP_ERR_PREFLIGHT'],
  );
  assert.equal((await runLoad({ ...base, profile: 'nope' })).exitCode, 2);
  assert.equal((await runLoad({ ...base, profile: 'smoke', sets: ['tenants=0'] })).exitCode, 2);
  assert.equal((await runLoad({ ...base, profile: 'smoke', keyPath: join(dir, 'missing.json') })).exitCode, 2);
  // Without k6 on PATH this is refused before the target is asked; with it, the target is unreachable.
  assert.equal((await runLoad({ ...base, profile: 'smoke', engine: 'k6' })).exitCode, 2);

  const quietErrors = t.mock.method(console, 'error', () => {});
  assert.equal(await main(['load', '--key', signingKeyPath]), 2, '--target is required');
  assert.equal(await main(['load', '--target', target, '--key', signingKeyPath, '--engine', 'jmeter']), 2);
  assert.equal(await main(['load', '--target', target, '--key', signingKeyPath, '--duration', 'soon']), 2);
  assert.equal(await main(['load', '--target', target, '--key', signingKeyPath, '--profile', 'smoke', '--engine', 'node', '--quiet']), 2);
  quietErrors.mock.restore();
});

test('a key the target does not trust is exit 2 with one line naming the fix, before any phase', async (t) => {
  const target = await startTarget(new MemoryStore());
  const stranger = await mkdtemp(join(tmpdir(), 'fleetproof-load-stranger-'));
  t.after(async () => {
    await target.close();
    await rm(stranger, { recursive: true, force: true });
  });
  const { signingKeyPath, jwksPath } = await writeSigningKeys(stranger);
  const out = join(stranger, 'run');
  const outcome = await runLoad({
    target: target.url,
    keyPath: signingKeyPath,
    profile: 'smoke',
    engine: 'node',
    quiet: true,
    outDir: out,
  });
  assert.equal(outcome.exitCode, 2);
  assert.match(
    outcome.message,
    new RegExp(
      `^the target refused a token signed with kid=\\S+ \\(role [a-z: ]+\\): configure it to trust ${jwksPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(audience fleetproof-registry\\)$`,
    ),
  );
  assert.equal(outcome.report ?? null, null, 'no report, so nothing reads as a verdict');
});
