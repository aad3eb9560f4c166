// Runs a k6 script on the Node runner with its terminal progress, for a test
// that starts it under a pseudo-terminal: `run-on-terminal SCRIPT`.
import { runWithNodeEngine } from '../engine.ts';

const result = await runWithNodeEngine({ scriptPath: process.argv[2]!, consoleOutput: '/dev/null' });
process.exitCode = result.exitCode;
