// A load run whose process ends while the load is under way, as a signal's
// handler ends it (process.exit), for plan-file-on-exit.test.ts. Run as a
// script with a report folder, it serves a memory store in-process, starts a
// smoke run into that folder and exits with 130 once the plan file is
// written; imported, exitMidRun runs it in a child process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { runLoad } from '../runner/run-load.ts';
import { startTarget } from './in-process-target.ts';

const SCRIPT = fileURLToPath(import.meta.url);

/** Runs the script in a child process; resolves with its exit code. */
export function exitMidRun(outDir: string): Promise<number | null> {
  // Compiled, this file is JavaScript; from the sources it needs tsx, as the test running it does.
  const loader = SCRIPT.endsWith('.ts') ? ['--import', 'tsx'] : [];
  // Bounded: a child that never reaches the load is killed, and the test then fails on its exit code.
  const child = spawn(process.execPath, [...loader, SCRIPT, outDir], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 120_000,
    killSignal: 'SIGKILL',
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

if (process.argv[1] === SCRIPT) {
  const target = await startTarget(new MemoryStore());
  void runLoad({
    target: target.url,
    keyPath: target.keyPath,
    profile: 'smoke',
    engine: 'node',
    quiet: true,
    outDir: process.argv[2]!,
    onLoadStart: () => setTimeout(() => process.exit(130), 200),
  });
}
