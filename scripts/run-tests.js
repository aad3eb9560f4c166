#!/usr/bin/env node
// npm test: every *.test.ts file under node:test, four at a time
// (FLEETPROOF_TEST_CONCURRENCY), compiled to JavaScript first
// (test-runner/compiled-tree.js; FLEETPROOF_TEST_FROM_SOURCES=1 runs the
// TypeScript through tsx instead).
// Arguments narrow the run to files whose path contains any of them
// (`npm test -- reference/store properties`); `--junit FILE` also writes a
// JUnit report. A file's own output is shown only when it fails. The last
// line is `N passed, N failed`. Exit 0 when nothing failed, else 1.
import { withTestDatabaseServer } from './test-postgres.js';
import { counts, summaryText, writeJunit } from './test-runner/report.js';
import { compiledTreeFor, runSuite, selectFiles, stopAllFiles, wasInterrupted } from './test-runner/suite.js';

const args = process.argv.slice(2);
/** @type {string | undefined} */
let junit;
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--junit') {
    junit = args[++i];
    if (!junit) {
      console.error('--junit needs a file name');
      process.exit(2);
    }
  } else filters.push(/** @type {string} */ (args[i]));
}
const files = selectFiles(filters);
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

// Children run in process groups of their own, out of reach of the terminal's Ctrl-C.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.once(signal, stopAllFiles);

const started = Date.now();
console.log(`${files.length} test file${files.length === 1 ? '' : 's'}`);
const tree = compiledTreeFor(files);
const results = await withTestDatabaseServer(() => runSuite({ files, tree }), files);
if (junit) await writeJunit(junit, results);
console.log(summaryText(results, Date.now() - started));
if (wasInterrupted()) console.log('interrupted: the files not run are not counted');
process.exit(wasInterrupted() ? 130 : counts(results).failed === 0 && results.length === files.length ? 0 : 1);
