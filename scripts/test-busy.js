#!/usr/bin/env node
// npm run test:busy -- [--hogs H] [N] [filters...]: the suite N times
// (default 3) with H CPU-bound processes (default 4) running beside it, as on
// a shared CI runner; the hogs are stopped afterwards, also on failure or
// Ctrl-C.
import { spawn } from 'node:child_process';
import { parseRoundsArgs, runRounds } from './test-runner/rounds.js';

const args = process.argv.slice(2);
let count = 4;
const at = args.indexOf('--hogs');
if (at !== -1) {
  count = Number(args[at + 1]);
  if (!Number.isInteger(count) || count < 0) {
    console.error(`--hogs takes a number of CPU-bound processes, not ${args[at + 1] ?? 'nothing'}`);
    process.exit(2);
  }
  args.splice(at, 2);
}
const { rounds, filters } = parseRoundsArgs(args, 3);
const hogs = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopHogs = () => {
  for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGKILL');
};
// 'exit' covers every way out, the signals included (the database server's handler exits the process).
process.on('exit', stopHogs);
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.once(signal, stopHogs);
console.log(`${count} CPU-bound process(es) running (pids ${hogs.map((h) => h.pid).join(', ')})`);
let code = 1;
try {
  code = await runRounds({ filters, rounds, envOf: () => ({}), describe: () => `beside ${count} CPU hog(s)` });
} finally {
  stopHogs();
}
process.exit(code);
