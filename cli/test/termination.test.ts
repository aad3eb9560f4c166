// Killing `npx fleetproof …` stops the server the command started. npx runs
// the command under npm and a shell; a signal to npx ends those two and leaves
// the command orphaned, so the test starts the command the same way (under a
// shell that does not pass signals on), kills the shell, and checks that the
// command stopped its server and exited. A signal that reaches the command
// again while it stops (Ctrl-C reaches every process of the job, and npm
// passes it on) lets it finish stopping: its temporary files are gone.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { mintToken } from '../../client/token-minter.ts';
import { loadSigningKey } from '../../contract/tokens.ts';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));
const STARTUP_MS = 120_000;
const started = new Set<ChildProcess>();
/** The commands below the shells, by pid, so a failed case still stops them. */
const commands = new Set<number>();
const dirs: string[] = [];

after(async () => {
  for (const child of started) child.kill('SIGKILL');
  for (const pid of commands) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

interface Launched {
  shell: ChildProcess;
  /** Resolves with the first URL a line of output names. */
  url: Promise<string>;
  /** What the command and the shell printed so far. */
  output(): string;
  /** The command's own pid, once the shell said it. */
  pid(): number | undefined;
  /** Resolves once every process holding the output pipes (the command too) has exited. */
  closed: Promise<string>;
}

/** The command in the background of a waiting shell: the shell is its parent, as npm exec's shell is, and says its pid. */
function underShell(args: string[]): Launched {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  // npm exec sets npm_command=exec for what it runs; that is how the command knows npx is above it.
  const shell = spawn('sh', ['-c', `${quoted} & echo "command pid $!"; wait`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_command: 'exec' },
  });
  started.add(shell);
  let output = '';
  let onLine: ((url: string) => void) | undefined;
  const url = new Promise<string>((resolve, reject) => {
    onLine = resolve;
    setTimeout(() => reject(new Error(`no address printed; output: ${output}`)), STARTUP_MS).unref();
  });
  const collect = (d: Buffer) => {
    output += d;
    const pid = /command pid ([0-9]+)/.exec(output);
    if (pid) commands.add(Number(pid[1]));
    const m = /(?:listening on|embedded reference \(memory store\) at) (http:\/\/[0-9.:]+)/.exec(output);
    if (m) onLine?.(m[1]!);
  };
  shell.stdout!.on('data', collect);
  shell.stderr!.on('data', collect);
  let open = 2;
  const closed = new Promise<string>((resolve) => {
    const done = () => --open === 0 && resolve(output);
    shell.stdout!.on('close', done);
    shell.stderr!.on('close', done);
  });
  return {
    shell,
    url,
    closed,
    output: () => output,
    pid: () => Number(/command pid ([0-9]+)/.exec(output)?.[1]) || undefined,
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await request(`${url}/version`, { headersTimeout: 5000 });
    await res.body.dump();
    return true;
  } catch {
    return false;
  }
}

describe('killing the npx process', () => {
  it('stops the server `serve` started', async () => {
    const run = underShell(['serve', '--port', '0']);
    const url = await run.url;
    assert.equal(await answers(url), true);
    run.shell.kill('SIGTERM');
    const output = await run.closed;
    assert.match(output, /SIGTERM, finishing in-flight requests/);
    assert.equal(await answers(url), false, 'the server is gone');
  });

  it('the same signal arriving again while serve stops does not cut its cleanup short', async () => {
    const run = underShell(['serve', '--port', '0']);
    const url = await run.url;
    // serve prints its temporary signing key on the line after its address.
    for (let waited = 0; !/^signing key: /m.test(run.output()) && waited < 10_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    const keyPath = /^signing key: (\S+)$/m.exec(run.output())?.[1];
    assert.ok(keyPath && existsSync(keyPath), run.output());
    const token = await mintToken({ key: await loadSigningKey(keyPath), roles: ['registry:admin'] });
    // A request in flight, its body half sent: serve waits for it before it stops.
    const body = JSON.stringify({ type_id: 'ctype_term', display_name: 'held open' });
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d));
      socket.on('close', () => resolve(text));
      socket.on('error', () => {});
    });
    const head = `PUT /v1/connector-types/ctype_term HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
    socket.write(head + body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 500));
    // Ctrl-C's signal reaches the command and npx's shell at once; the shell's going sets the orphan watch off: SIGTERM again.
    process.kill(run.pid()!, 'SIGTERM');
    run.shell.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    process.kill(run.pid()!, 'SIGTERM'); // as npm passes the terminal's signal on to what it runs
    await new Promise((r) => setTimeout(r, 1200));
    socket.write(body.slice(10));
    const output = await run.closed;
    assert.match(output, /SIGTERM, finishing in-flight requests/);
    assert.match(await answer, /^HTTP\/1\.1 [0-9]{3} /, 'the request in flight got its answer');
    assert.equal(existsSync(dirname(keyPath)), false, 'the temporary key folder is removed');
  });

  it("stops certify's embedded reference", async () => {
    const out = await mkdtemp(join(tmpdir(), 'fleetproof-term-'));
    dirs.push(out);
    const run = underShell(['certify', '--out', out]);
    const url = await run.url;
    run.shell.kill('SIGTERM');
    const output = await run.closed;
    assert.match(output, /SIGTERM, stopping what this run started/);
    assert.equal(await answers(url), false, 'the embedded reference is gone');
  });
});
