// What the test runner prints and writes: a line per finished file with the
// progress so far, the failures in full with the file's captured output, a
// closing summary (each reason tests were skipped for, once, however many
// files gave it) whose last line is `N passed, N failed`, and JUnit XML.
import { writeFile } from 'node:fs/promises';
import { fileFailed } from './file-run.js';

/** @typedef {import('./file-run.js').FileResult} FileResult */

/** @param {number} ms */
export function clock(ms) {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** @param {import('./file-run.js').TestResult} t */
const fullName = (t) => [...t.path, t.name].join(' › ');

/** @param {FileResult[]} results */
export function counts(results) {
  const tests = results.flatMap((r) => r.tests);
  const broken = results.filter((r) => fileFailed(r) && r.tests.every((t) => t.ok)).length;
  return {
    passed: tests.filter((t) => t.ok && !t.skipped).length,
    skipped: tests.filter((t) => t.skipped).length,
    // A file that failed without a failing test (timeout, crash, import error) counts once.
    failed: tests.filter((t) => !t.ok).length + broken,
  };
}

/** The file's failures, the test that was running at a timeout, and what the file printed. */
export function failureText(/** @type {FileResult} */ r) {
  const lines = [`✖ ${r.file}`];
  if (r.timedOut)
    lines.push(
      `  killed after ${clock(r.durationMs)} (the per-file timeout); still running: ${r.timedOut.length ? r.timedOut.join(' › ') : 'no test (the file hung outside its tests, or after them)'}`,
    );
  if (r.fileError) lines.push(`  the file failed outside its tests:\n${indent(r.fileError, 4)}`);
  if (!r.timedOut && !r.fileError && r.tests.every((t) => t.ok))
    lines.push(r.exitCode === null ? '  the test process was killed (interrupted)' : `  the test process exited with ${r.exitCode}`);
  for (const t of r.tests.filter((x) => !x.ok)) lines.push(`  ✖ ${fullName(t)}\n${indent(t.error ?? 'failed', 4)}`);
  if (r.output.trim()) lines.push(`  output of ${r.file}:\n${indent(r.output.trimEnd(), 4)}`);
  return lines.join('\n');
}

/** @param {string} text @param {number} n */
function indent(text, n) {
  const pad = ' '.repeat(n);
  return text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}

/** @param {FileResult} r @param {number} done @param {number} total @param {number} failedSoFar @param {number} elapsedMs */
export function progressLine(r, done, total, failedSoFar, elapsedMs) {
  const mark = fileFailed(r) ? '✖' : '✔';
  const n = r.tests.length;
  const cpu = r.cpuMs === undefined ? '' : `, ${(r.cpuMs / 1000).toFixed(1)} CPU-s`;
  return `${mark} [${done}/${total}] ${r.file} (${n} test${n === 1 ? '' : 's'}, ${(r.durationMs / 1000).toFixed(1)} s${cpu}) · ${failedSoFar} failed so far · ${clock(elapsedMs)} elapsed`;
}

/** @param {FileResult[]} results @param {number} elapsedMs */
export function summaryText(results, elapsedMs) {
  const c = counts(results);
  const failing = results.filter(fileFailed);
  const lines = [''];
  if (failing.length) lines.push(`failures (${failing.length} file${failing.length === 1 ? '' : 's'}):`, ...failing.map(failureText), '');
  const cpuMs = results.reduce((sum, r) => sum + (r.cpuMs ?? 0), 0);
  const cpu = results.some((r) => r.cpuMs !== undefined) ? ` (test processes: ${(cpuMs / 1000).toFixed(0)} CPU-s)` : '';
  lines.push(`${results.length} files in ${clock(elapsedMs)}${cpu}; ${c.skipped} skipped`);
  /** @type {Map<string, number>} */
  const reasons = new Map();
  for (const t of results.flatMap((r) => r.tests)) if (t.skipReason) reasons.set(t.skipReason, (reasons.get(t.skipReason) ?? 0) + 1);
  for (const [reason, n] of reasons) lines.push(`  skipped: ${reason} (${n} test${n === 1 ? '' : 's'})`);
  lines.push(`${c.passed} passed, ${c.failed} failed`);
  return lines.join('\n');
}

/** @param {string} s */
const xml = (s) =>
  s
    .replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] ?? ch)
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, '');

/** One <testsuite> per file; a file that failed outside its tests gets a failing <testcase> of its own. */
export async function writeJunit(/** @type {string} */ path, /** @type {FileResult[]} */ results) {
  const suites = results.map((r) => {
    const cases = r.tests.map((t) => {
      const body = t.skipped
        ? '<skipped/>'
        : t.ok
          ? ''
          : `<failure message="${xml((t.error ?? 'failed').split('\n')[0] ?? '')}">${xml(t.error ?? '')}</failure>`;
      return `    <testcase classname="${xml(r.file)}" name="${xml(fullName(t))}" time="${(t.durationMs / 1000).toFixed(3)}">${body}</testcase>`;
    });
    if (fileFailed(r) && r.tests.every((t) => t.ok)) {
      cases.push(
        `    <testcase classname="${xml(r.file)}" name="(file)" time="${(r.durationMs / 1000).toFixed(3)}"><failure message="the file failed outside its tests">${xml(failureText(r))}</failure></testcase>`,
      );
    }
    const c = counts([r]);
    const out = r.output ? `\n    <system-out>${xml(r.output)}</system-out>` : '';
    return `  <testsuite name="${xml(r.file)}" tests="${cases.length}" failures="${c.failed}" skipped="${c.skipped}" time="${(r.durationMs / 1000).toFixed(3)}">\n${cases.join('\n')}${out}\n  </testsuite>`;
  });
  const c = counts(results);
  await writeFile(
    path,
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${c.passed + c.failed + c.skipped}" failures="${c.failed}">\n${suites.join('\n')}\n</testsuites>\n`,
  );
}
