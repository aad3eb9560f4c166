// A staged script is a tree of ES modules wherever the runner's thread loads
// it: under plain Node (a compiled install) and under tsx's loader, which is
// how `fleetproof` runs from its TypeScript sources. tsx takes a .js file
// outside a "type": "module" package for CommonJS, and a script whose
// modules import each other (load/scale.js's do) then failed to load at all.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { stageScript } from '../stage-script.ts';

const TSX_API = import.meta.resolve('tsx/esm/api');

function importIn(modulePath: string, withTsx: boolean): Promise<string> {
  const url = pathToFileURL(modulePath).href;
  const code = `${withTsx ? `(await import(${JSON.stringify(TSX_API)})).register();\n` : ''}const m = await import(${JSON.stringify(url)});\nconsole.log(m.answer());`;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', code], { timeout: 60_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(stderr || err.message)) : resolve(stdout.trim()),
    ),
  );
}

test('a staged script whose modules import each other loads under plain Node and under tsx alike', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-stage-loaders-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'lib'));
  await writeFile(
    join(dir, 'script.js'),
    `import { check } from 'k6';\nimport { helper } from './lib/helper.js';\nexport const name = 'script';\nexport function answer() { return helper() + (typeof check); }\n`,
  );
  await writeFile(
    join(dir, 'lib', 'helper.js'),
    `import { name } from '../script.js';\nexport function helper() { return name + ' via helper, check is a '; }\n`,
  );
  const staged = await stageScript(join(dir, 'script.js'));
  t.after(() => staged.remove());
  for (const withTsx of [false, true]) {
    assert.equal(
      await importIn(staged.path, withTsx),
      'script via helper, check is a function',
      withTsx ? 'under tsx' : 'under plain Node',
    );
  }
});
