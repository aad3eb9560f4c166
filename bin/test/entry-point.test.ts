// The package's entry point as a user starts it from a checkout or an
// install: TypeScript loaded through tsx. Every other test file runs from
// npm test's compiled tree, where bin/fleetproof.js takes the JavaScript
// beside the sources instead; this file runs from the repository
// (FROM_SOURCES in scripts/test-runner/suite.js), so that path stays proven.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../fleetproof.js', import.meta.url));
/** Start-up compiles the contract's schemas, through tsx here; on a crowded machine that takes a while. */
const STARTUP_MS = 120_000;

test('it runs from the TypeScript sources: no compiled JavaScript beside them', () => {
  assert.equal(
    existsSync(new URL('../cli/main.js', import.meta.url)),
    false,
    'this file must run from the repository, not from a compiled tree',
  );
});

test('--help lists the commands and exits 0', async () => {
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) =>
    execFile(process.execPath, [BIN, '--help'], { timeout: STARTUP_MS }, (err, stdout) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout }),
    ),
  );
  assert.equal(code, 0);
  for (const command of ['certify', 'conform', 'load', 'properties', 'serve', 'verify'])
    assert.match(stdout, new RegExp(`^  ${command} `, 'm'));
});

test('serve starts the reference registry, answers /health, and exits 0 on SIGTERM', async (t) => {
  const child = spawn(process.execPath, [BIN, 'serve', '--store', 'memory', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const first = await Promise.race([
    lines.next(),
    new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`no address within ${STARTUP_MS} ms; stderr: ${stderr}`)), STARTUP_MS)),
    ),
  ]).finally(() => clearTimeout(timer));
  assert.equal(first.done, false, `serve ended before printing its address; stderr: ${stderr}`);
  const url = String(first.value).replace('listening on ', '');
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const health = await fetch(`${url}/health`);
  assert.equal(health.status, 200);
  await health.body?.cancel();
  child.kill('SIGTERM');
  assert.equal(await exit, 0, stderr);
});
