// `npm test` includes the type check, so code that does not type-check never
// reaches main even though CI runs only the test command. The two programs
// together (the root one, and load/'s for the k6 scripts) must hold every
// TypeScript and JavaScript file, tests included: a file neither names is
// never checked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { listSourceFiles } from '../architecture/import-graph.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PROGRAMS = ['tsconfig.json', 'load/tsconfig.json'];

function filesOf(config: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, config),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')) },
  );
  assert.ok(parsed, `${config} does not parse`);
  return parsed.fileNames.map((f) => relative(root, f).split(sep).join('/'));
}

test('every TypeScript and JavaScript file is in a type-checked program', () => {
  const checked = new Set(PROGRAMS.flatMap(filesOf));
  const unchecked = listSourceFiles(root).filter((f) => !checked.has(f));
  assert.deepEqual(unchecked, [], `not type-checked by ${PROGRAMS.join(' or ')}:\n${unchecked.join('\n')}`);
});

test('the project type-checks (npm run typecheck)', () => {
  const result = spawnSync('npm', ['run', '--silent', 'typecheck'], { cwd: root, encoding: 'utf8', timeout: 240_000 });
  assert.equal(result.status, 0, `type errors:\n${result.stdout}${result.stderr}`);
});
