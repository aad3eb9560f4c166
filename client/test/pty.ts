// A command run under a real pseudo-terminal (util-linux `script`), as a user
// at a terminal runs it: its stdout and stderr are TTYs, so what it draws in
// place is what the test reads.
import { spawn } from 'node:child_process';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function underPty(
  argv: string[],
  o: { env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  // -e: script exits with the command's code; -f: flush as it comes; -q: no banner.
  const child = spawn('script', ['-qfec', argv.map(quote).join(' '), '/dev/null'], {
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(stop, o.timeoutMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      stop();
      resolve({ code, output });
    }),
  );
}
