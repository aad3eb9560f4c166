// openapi.yaml parsed once, when the compiled code is built (dist/ and the
// test runner's tree), and written beside it as contract/openapi.json with
// the digest of the YAML it came from. Loading the yaml package and parsing
// the document cost each process about a third of a CPU-second at its
// start; reading the JSON, a few milliseconds (docs/figures.md).
// contract/openapi.ts takes the JSON only while that digest is the YAML's
// beside it, so an edited contract is never shadowed by an old copy, and the
// YAML stays the one source.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** Writes `<tree>/contract/openapi.json` from `<tree>/contract/openapi.yaml`; a tree without one (a test's fixture) gets none. */
export function writeParsedOpenApi(/** @type {string} */ tree) {
  const source = join(tree, 'contract', 'openapi.yaml');
  if (!existsSync(source)) return;
  const yaml = readFileSync(source, 'utf8');
  const parsed = { yaml_sha256: createHash('sha256').update(yaml).digest('hex'), document: parse(yaml) };
  writeFileSync(join(tree, 'contract', 'openapi.json'), JSON.stringify(parsed));
}
