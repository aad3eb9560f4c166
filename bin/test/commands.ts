// Commands run as a user runs them, each in a process group of its own, so a
// test that fails or times out still ends everything the command started
// (npx runs the program under npm and a shell).
import { spawn, type ChildProcess } from 'node:child_process';

export interface Ran {
  code: number | null;
  /** stdout and stderr, interleaved as they arrived. */
  output: string;
}

interface Options {
  cwd: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

function spawnGroup(command: string, args: string[], o: Options): ChildProcess {
  return spawn(command, args, { cwd: o.cwd, env: { ...process.env, ...o.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/** Runs a command to its end, or kills its group at the deadline (the output then says so). */
export function runCommand(command: string, args: string[], o: Options): Promise<Ran> {
  const child = spawnGroup(command, args, o);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const timer = setTimeout(() => {
    output += `\n[killed after ${o.timeoutMs} ms: ${command} ${args.join(' ')}]`;
    killGroup(child);
  }, o.timeoutMs ?? 120_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      killGroup(child);
      resolve({ code, output });
    }),
  );
}
