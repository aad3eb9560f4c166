// `fleetproof properties` as a child process, as a user runs it, with the
// FC_* variables of the surrounding test run cleared.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export function fleetproofProperties(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/fleetproof.js', 'properties', ...args],
      { cwd: root, env: { ...process.env, FC_SEED: '', FC_PATH: '', FC_SUITE: '', ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
