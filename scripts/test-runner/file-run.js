// One test file in its own process: node:test with the JSON-lines reporter,
// the file's own output kept aside, and a last-resort timeout that kills
// the process group and names the tests that were still running.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REPORTER = fileURLToPath(new URL('./events-reporter.js', import.meta.url));

/**
 * @typedef {{ name: string, path: string[], ok: boolean, skipped: boolean, skipReason?: string, durationMs: number, error?: string }} TestResult
 * @typedef {{ file: string, tests: TestResult[], output: string, durationMs: number, cpuMs?: number, timedOut: string[] | null, exitCode: number | null, fileError?: string }} FileResult
 */

/**
 * CPU milliseconds (user + system) of every child this process has reaped,
 * with the children they reaped in turn: /proc/self/stat's cutime and
 * cstime, counted in Linux's USER_HZ (100 a second). Undefined without /proc.
 */
function reapedChildrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return undefined;
  }
}
/** @type {number | undefined} */
let reapedBefore;
let filesRunning = 0;

/** With no file running, whatever else the runner reaped before (the compiler) is no file's. */
function countFromHere() {
  if (filesRunning++ === 0) reapedBefore = reapedChildrenCpuMs();
}

/**
 * A file's CPU time: what the reaped children's total grew by since the
 * last exit. Each child is reaped when it exits, so the growth at its exit
 * is its own (two exits reaped in the same turn of the loop fall to the
 * first). A process a file left running unreaped is not counted.
 */
function cpuOfExitedChild() {
  filesRunning--;
  const now = reapedChildrenCpuMs();
  if (now === undefined || reapedBefore === undefined) return undefined;
  const grew = now - reapedBefore;
  reapedBefore = now;
  return grew;
}

/**
 * `file` names the test file in every result (its path in the repository);
 * `runs`, when given, is what the process runs instead (its compiled form).
 * A .ts file is loaded through tsx, a .js file as it is. Both are relative to `root`, the child's working directory.
 * @param {{ file: string, runs?: string, root: string, env: NodeJS.ProcessEnv, testTimeoutMs: number, fileTimeoutMs: number, onChild: (stop: () => void, runningTests: () => string[]) => () => void }} o
 * @returns {Promise<FileResult>}
 */
export function runFile(o) {
  const started = Date.now();
  const runs = o.runs ?? o.file;
  // Compiled, the stack traces of failures still name the .ts lines (tsconfig.build.json writes source maps).
  const loader = runs.endsWith('.ts') ? ['--import', 'tsx'] : ['--enable-source-maps'];
  const args = [
    ...loader,
    '--test',
    `--test-reporter=${REPORTER}`,
    '--test-reporter-destination=stdout',
    `--test-timeout=${o.testTimeoutMs}`,
    runs,
  ];
  // Its own process group, so a timeout or Ctrl-C also ends what the file started.
  // Run under node:test itself (the runner's own tests), the child would otherwise report to it instead of to the reporter.
  const { NODE_TEST_CONTEXT: _, ...env } = o.env;
  countFromHere();
  const child = spawn(process.execPath, args, { cwd: o.root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const stop = () => {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
    } catch {
      // already gone
    }
  };
  /** The names of the tests begun and not yet completed, outermost first. */
  const running = /** @type {string[]} */ ([]);
  const forget = o.onChild(stop, () => running.filter(Boolean));
  /** @type {TestResult[]} */
  const tests = [];
  let output = '';
  /** @type {string | undefined} */
  let fileError;
  let pending = '';
  const onEvent = (/** @type {any} */ e) => {
    if (e.type === 'test:stdout' || e.type === 'test:stderr') output += e.message ?? '';
    else if (e.type === 'test:dequeue' && e.name !== e.file) running[e.nesting] = e.name;
    else if (e.type === 'test:complete') running.length = Math.min(running.length, e.nesting);
    else if ((e.type === 'test:pass' || e.type === 'test:fail') && e.name === e.file) {
      // The file itself, reported only when it failed outside any test (an import error, a crash).
      if (e.type === 'test:fail') fileError = e.error ?? 'the file failed outside its tests';
    } else if ((e.type === 'test:pass' || e.type === 'test:fail') && e.kind !== 'suite') {
      const path = running.slice(0, e.nesting);
      tests.push({
        name: e.name,
        path,
        ok: e.type === 'test:pass',
        skipped: e.skip || e.todo,
        ...(e.skipReason ? { skipReason: e.skipReason } : {}),
        durationMs: e.duration_ms ?? 0,
        error: e.error,
      });
    } else if (e.type === 'test:fail' && e.kind === 'suite' && e.error && !/subtests? failed/.test(e.error)) {
      // A hook of the suite failed (before/after): no test carries it.
      tests.push({
        name: `${e.name} (suite hook)`,
        path: running.slice(0, e.nesting),
        ok: false,
        skipped: false,
        durationMs: e.duration_ms ?? 0,
        error: e.error,
      });
    }
  };
  child.stdout.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
    pending += chunk;
    let nl;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      try {
        onEvent(JSON.parse(line));
      } catch {
        output += `${line}\n`;
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => (output += chunk));
  /** @type {string[] | null} */
  let timedOut = null;
  const timer = setTimeout(() => {
    timedOut = running.filter(Boolean);
    stop();
  }, o.fileTimeoutMs);
  /** @type {number | undefined} */
  let cpuMs;
  child.on('exit', () => (cpuMs = cpuOfExitedChild()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      forget();
      resolve({
        file: o.file,
        tests,
        output,
        durationMs: Date.now() - started,
        ...(cpuMs === undefined ? {} : { cpuMs }),
        timedOut,
        exitCode: code,
        ...(fileError ? { fileError } : {}),
      });
    });
  });
}

/** @param {FileResult} r */
export function fileFailed(r) {
  return r.exitCode !== 0 || r.timedOut !== null || r.fileError !== undefined || r.tests.some((t) => !t.ok);
}
