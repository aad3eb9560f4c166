// A VU may hold many requests in flight at once (sent together and awaited
// with Promise.all), all cancelled by the VU's one signal if it is stopped:
// that is no leak, and a run says nothing of one (Node warns past ten
// listeners on a signal by default).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT, runWithNodeEngine } from '../engine.ts';

const SCRIPT = `import http from 'k6/http';
export const options = { iterations: 1 };
export default async function () { await Promise.all(Array.from({ length: 20 }, (_, i) => http.asyncRequest('GET', __ENV.BASE + '/' + i))); }
`;

test('twenty requests of one VU in flight at once raise no listener warning', async (t) => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  // Each request is answered once all twenty are in flight, so they were.
  const waiting: Array<() => void> = [];
  const server = createServer((req, res) => {
    waiting.push(() => res.end('ok'));
    if (waiting.length === 20) waiting.splice(0).forEach((answer) => answer());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-in-flight-'));
  t.after(async () => {
    process.off('warning', onWarning);
    server.closeAllConnections();
    server.close();
    await rm(dir, { recursive: true, force: true });
  });
  const script = join(dir, 'in-flight.js');
  await writeFile(script, SCRIPT);
  const r = await runWithNodeEngine({
    scriptPath: script,
    env: { BASE: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
    progress: () => {},
  });
  assert.equal(r.error, null);
  assert.equal(r.exitCode, EXIT.ok);
  // Warnings are emitted on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    warnings.filter((w) => /MaxListeners/.test(w)),
    [],
  );
});
