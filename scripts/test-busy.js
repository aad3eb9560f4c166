#!/usr/bin/env node
// npm run test:busy -- [N] [filters...]: the suite N times (default 3) with
// two CPU-bound processes running beside it, as on a shared CI runner; the
// hogs are stopped afterwards, also on failure or Ctrl-C.
import { spawn } from 'node:child_process';
import { parseRoundsArgs, runRounds } from './test-runner/rounds.js';

const { rounds, filters } = parseRoundsArgs(process.argv.slice(2), 3);
const hogs = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopHogs = () => {
  for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGKILL');
};
// 'exit' covers every way out, the signals included (the database server's handler exits the process).
process.on('exit', stopHogs);
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.once(signal, stopHogs);
console.log(`two CPU-bound processes running (pids ${hogs.map((h) => h.pid).join(', ')})`);
let code = 1;
try {
  code = await runRounds({ filters, rounds, envOf: () => ({}), describe: () => 'beside two CPU hogs' });
} finally {
  stopHogs();
}
process.exit(code);
