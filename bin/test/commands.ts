// Commands run as a user runs them, each in a process group of its own, so a
// test that fails or times out still ends everything the command started
// (npx runs the program under npm and a shell).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

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

export interface Started {
  /** The first line of stdout that matches, or a rejection naming what the command printed. */
  line(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /**
   * SIGTERM to the whole group, as a terminal's Ctrl-C reaches every process of a foreground job; true when
   * every process of the group is gone within `graceMs`. The group is then killed in any case.
   */
  stop(graceMs: number): Promise<boolean>;
  /** The command names of the processes in the command's session now: what it has started. */
  commands(): string[];
}

const groupAlive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Starts a long-running command (a server); stop() ends its whole group. */
export function startCommand(command: string, args: string[], o: Options): Started {
  const child = spawnGroup(command, args, o);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d));
  child.stderr!.on('data', (d: Buffer) => (stderr += d));
  const matchOf = (pattern: RegExp) => stdout.split('\n').reduce<RegExpExecArray | null>((m, l) => m ?? pattern.exec(l), null);
  return {
    line: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const m = matchOf(pattern);
          if (m) resolve(m);
          else if (child.exitCode !== null || Date.now() - started > timeoutMs)
            reject(new Error(`no line ${pattern}; stdout: ${stdout}; stderr: ${stderr}`));
          else return;
          clearInterval(poll);
        }, 50);
      }),
    // Started detached, the command leads a session of its own: ps selects it by that session.
    commands: () =>
      child.pid === undefined
        ? []
        : execFileSync('ps', ['-o', 'comm=', '-s', String(child.pid)], { encoding: 'utf8', timeout: 10_000 })
            .split('\n')
            .map((c) => c.trim())
            .filter(Boolean),
    async stop(graceMs) {
      const pid = child.pid;
      if (pid === undefined) return true;
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // the group is gone already
      }
      const deadline = Date.now() + graceMs;
      while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const gone = !groupAlive(pid);
      killGroup(child);
      return gone;
    },
  };
}
