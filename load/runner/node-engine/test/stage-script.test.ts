// The staged copy of a script: k6's module names point at the Node runner's
// implementations, local modules (imported, re-exported, imported
// dynamically, in other directories) are staged beside it with their layout,
// comments and strings are left alone, and what the runner cannot load is
// refused before any VU starts.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ScriptStagingError, stageScript } from '../stage-script.ts';

test('a script and its local modules are staged with k6 mapped to the Node runner', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-stage-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'lib'));
  await mkdir(join(dir, 'shared'));
  await writeFile(
    join(dir, 'script.js'),
    `import http from 'k6/http';\nimport { check } from "k6";\nimport { a } from './lib/a.js';\nexport { b } from './lib/b.js';\nexport const later = () => import('../${dir.split('/').pop()}/shared/c.js');\nimport { d } from '${join(dir, 'shared', 'd.js')}';\nimport { e } from 'file://${join(dir, 'shared', 'e.js')}';\n/** @type {import('k6/options').Options} */\nexport const options = {};\nconst quoted = "import x from 'k6/nope'";\nexport default function () { return [http, check, a, quoted]; }\n`,
  );
  await writeFile(join(dir, 'lib', 'a.js'), `import exec from 'k6/execution';\nexport * from '../shared/c.js';\nexport const a = exec;\n`);
  await writeFile(join(dir, 'lib', 'b.js'), `export const b = 2;\n`);
  await writeFile(join(dir, 'shared', 'c.js'), `export const c = 3;\n`);
  await writeFile(join(dir, 'shared', 'd.js'), `import { check } from 'k6';\nexport const d = check;\n`);
  await writeFile(join(dir, 'shared', 'e.js'), `export const e = 5;\n`);
  const staged = await stageScript(join(dir, 'script.js'));
  t.after(() => staged.remove());
  const root = staged.path.slice(0, staged.path.length - join(dir, 'script.js').length);
  const script = await readFile(staged.path, 'utf8');
  assert.match(script, /from 'file:\/\/\/[^']*\/vu\/k6-http\.js'/);
  assert.match(script, /from "file:\/\/\/[^"]*\/vu\/k6\.js"/);
  assert.match(script, /from '\.\/lib\/a\.js'/, 'relative imports stay relative');
  assert.match(script, /import\('k6\/options'\)/, 'a JSDoc type import is no import');
  assert.match(script, /"import x from 'k6\/nope'"/, 'nor is one quoted in a string');
  // An absolute import names the staged copy, not the original, whose k6 imports Node cannot resolve.
  assert.ok(script.includes(`from 'file://${root}${join(dir, 'shared', 'd.js')}'`), 'an absolute path points into the staged copy');
  assert.ok(script.includes(`from 'file://${root}${join(dir, 'shared', 'e.js')}'`), 'a file: URL points into the staged copy');
  for (const file of ['lib/a.js', 'lib/b.js', 'shared/c.js', 'shared/d.js', 'shared/e.js'])
    assert.ok(await readFile(join(root, dir, file), 'utf8'), `${file} is staged`);
  assert.match(await readFile(join(root, dir, 'lib/a.js'), 'utf8'), /vu\/k6-execution\.js/);

  await writeFile(join(dir, 'remote.js'), `import x from 'https://jslib.k6.io/x.js';\nexport default function () {}\n`);
  await assert.rejects(
    stageScript(join(dir, 'remote.js')),
    (err) => err instanceof ScriptStagingError && /loads local files only/.test(err.message),
  );
  await writeFile(join(dir, 'unknown.js'), `import { x } from 'k6/experimental/nope';\nexport default function () {}\n`);
  await assert.rejects(stageScript(join(dir, 'unknown.js')), /does not provide k6\/experimental\/nope/);
});
