// The suite run several times in a row on one database server, for
// test:repeat and test:busy: each round's wall time and counts, and how
// often each test failed across the rounds.
import { withTestDatabaseServer } from '../test-postgres.js';
import { clock, counts } from './report.js';
import { compiledTreeFor, runSuite, selectFiles, stopAllFiles, wasInterrupted } from './suite.js';
import { fileFailed } from './file-run.js';

/** `N [filters...]`: the count first, then npm test's filters. */
export function parseRoundsArgs(/** @type {string[]} */ args, /** @type {number} */ fallback) {
  const first = args[0];
  if (first !== undefined && /^[0-9]+$/.test(first)) return { rounds: Math.max(1, Number(first)), filters: args.slice(1) };
  return { rounds: fallback, filters: args };
}

/**
 * @param {{ filters: string[], rounds: number, envOf: (round: number) => NodeJS.ProcessEnv, describe: (round: number) => string }} o
 * @returns {Promise<number>} the exit code: 0 when no round failed
 */
export async function runRounds(o) {
  const files = selectFiles(o.filters);
  if (files.length === 0) {
    console.error(`no test files match ${o.filters.join(' ')}`);
    return 1;
  }
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.once(signal, stopAllFiles);
  /** @type {Array<{ round: number, wallMs: number, passed: number, failed: number }>} */
  const rounds = [];
  /** The rounds each failing test (or file) failed in. */
  const failures = /** @type {Map<string, number[]>} */ (new Map());
  // One tree for every round: all of them run the same code, whatever is edited meanwhile.
  const tree = compiledTreeFor(files);
  await withTestDatabaseServer(async () => {
    for (let round = 1; round <= o.rounds && !wasInterrupted(); round++) {
      console.log(`round ${round}/${o.rounds}: ${o.describe(round)}, ${files.length} files`);
      const started = Date.now();
      const results = await runSuite({
        files,
        tree,
        env: o.envOf(round),
        print: (line) => console.log(`  ${line.split('\n').join('\n  ')}`),
      });
      const c = counts(results);
      rounds.push({ round, wallMs: Date.now() - started, passed: c.passed, failed: c.failed });
      for (const r of results.filter(fileFailed)) {
        const names = r.tests.filter((t) => !t.ok).map((t) => `${r.file}: ${[...t.path, t.name].join(' › ')}`);
        for (const name of names.length ? names : [`${r.file}: (the file itself)`])
          failures.set(name, [...(failures.get(name) ?? []), round]);
      }
      console.log(`round ${round}: ${c.passed} passed, ${c.failed} failed in ${clock(Date.now() - started)}`);
    }
  }, files);
  console.log('\nwall time per round:');
  for (const r of rounds) console.log(`  round ${r.round}: ${clock(r.wallMs)} (${r.passed} passed, ${r.failed} failed)`);
  console.log(failures.size ? '\nfailures per test:' : '\nfailures per test: none');
  for (const [name, rounds] of [...failures].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${rounds.length}/${o.rounds}  ${name}  (${rounds.map(o.describe).join('; ')})`);
  }
  const passed = rounds.reduce((n, r) => n + r.passed, 0);
  const failed = rounds.reduce((n, r) => n + r.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
