// The reference registry as a child process (`fleetproof serve`) on a fixed
// loopback port and a given PostgreSQL database, so that a fault can SIGKILL
// it mid-request and start it again on the same data and the same address —
// a crash an in-process server cannot suffer.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSigningKey, writeSigningKeys, type SigningKey } from '../contract/tokens.ts';
import type { Fault } from '../certify/nemesis/nemesis.ts';

const BIN = fileURLToPath(new URL('../bin/fleetproof.js', import.meta.url));
const START_TIMEOUT_MS = 60_000;

export interface ReferenceProcess {
  readonly url: string;
  readonly signingKey: SigningKey;
  readonly signingKeyPath: string;
  /** SIGKILL, then SIGKILL's restart: the registry's crash fault. */
  readonly crash: Fault;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

function spawnServe(args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const errors: string[] = [];
    const timer = setTimeout(
      () => (child.kill('SIGKILL'), reject(new Error(`the reference did not start within ${START_TIMEOUT_MS} ms`))),
      START_TIMEOUT_MS,
    );
    child.stderr!.on('data', (b: Buffer) => errors.push(b.toString()));
    child.stdout!.on('data', (b: Buffer) => {
      if (!b.toString().includes('listening on ')) return;
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the reference exited (${signal ?? code}) before listening: ${errors.join('').trim().slice(-400)}`));
    });
  });
}

/** `variant`: the seed of a reference variant to serve (`fleetproof serve --variant`). */
export async function startReferenceProcess(pgUrl: string, variant?: number): Promise<ReferenceProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-reference-process-'));
  try {
    const keys = await writeSigningKeys(dir);
    const port = await freePort();
    const args = [
      '--store',
      'postgres',
      '--pg-url',
      pgUrl,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--jwks',
      keys.jwksPath,
      ...(variant === undefined ? [] : ['--variant', String(variant)]),
    ];
    let child: ChildProcess | null = await spawnServe(args);
    const kill = async () => {
      const c = child;
      child = null;
      if (!c) return;
      c.kill('SIGKILL');
      await exited(c);
    };
    return {
      url: `http://127.0.0.1:${port}`,
      signingKey: await loadSigningKey(keys.signingKeyPath),
      signingKeyPath: keys.signingKeyPath,
      crash: {
        name: 'process-kill',
        inject: kill,
        heal: async () => void (child ??= await spawnServe(args)),
      },
      async close() {
        const c = child;
        child = null;
        if (c) {
          c.kill('SIGTERM');
          await exited(c);
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
