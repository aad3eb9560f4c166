// The parsed copy of openapi.yaml the build writes beside the compiled code
// (scripts/openapi-json.js): it holds what the YAML says, contract/openapi.ts
// reads it while its digest is the YAML's beside it, and an edited YAML wins
// over a copy made from the YAML before the edit.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { writeParsedOpenApi } from '../openapi-json.js';

const CONTRACT = fileURLToPath(new URL('../../contract/', import.meta.url));
/** Compiled (the test runner's tree) or from the sources: the modules carry the extension this file has. */
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
type OpenApiModule = typeof import('../../contract/openapi.ts');

/** A fresh copy of the contract module and what it reads, so each load starts with nothing cached. */
async function contractCopy(root: string, name: string, yaml: string): Promise<{ dir: string; load: () => Promise<OpenApiModule> }> {
  const dir = join(root, name);
  mkdirSync(join(dir, 'contract'), { recursive: true });
  for (const file of [`openapi${EXT}`, `digest${EXT}`, 'canonical-json.js'])
    copyFileSync(join(CONTRACT, file), join(dir, 'contract', file));
  writeFileSync(join(dir, 'contract', 'openapi.yaml'), yaml);
  return { dir, load: () => import(pathToFileURL(join(dir, 'contract', `openapi${EXT}`)).href) as Promise<OpenApiModule> };
}

test('the parsed copy holds what openapi.yaml says, and the contract reads it; an edited YAML is read instead of an old copy', async (t) => {
  // Inside the repository, so that the copies find node_modules (yaml) as the contract does.
  const builds = fileURLToPath(new URL('../../.build/', import.meta.url));
  mkdirSync(builds, { recursive: true });
  const root = await mkdtemp(join(builds, 'openapi-json-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const yaml = readFileSync(join(CONTRACT, 'openapi.yaml'), 'utf8');

  const fresh = await contractCopy(root, 'fresh', yaml);
  writeParsedOpenApi(fresh.dir);
  const written = JSON.parse(readFileSync(join(fresh.dir, 'contract', 'openapi.json'), 'utf8')) as {
    document: { info: { title: string } };
  };
  assert.deepEqual(written.document, parse(yaml));
  // Marked, so that what the module returns shows where it came from.
  written.document.info.title = 'read from the parsed copy';
  writeFileSync(join(fresh.dir, 'contract', 'openapi.json'), JSON.stringify(written));
  assert.equal(((await fresh.load()).openApiDocument().info as { title?: string }).title, 'read from the parsed copy');

  const edited = yaml.replace(/^(\s+title:\s*).*$/m, '$1edited after the build');
  assert.notEqual(edited, yaml);
  const stale = await contractCopy(root, 'stale', edited);
  writeFileSync(join(stale.dir, 'contract', 'openapi.json'), JSON.stringify(written));
  assert.equal(((await stale.load()).openApiDocument().info as { title?: string }).title, 'edited after the build');

  const none = await contractCopy(root, 'none', yaml);
  assert.deepEqual((await none.load()).openApiDocument(), parse(yaml));
});
