// No export is referenced nowhere: each one is used by another file or by its
// own. The checker is tested on small sources, so a green run means exports
// were looked for, not skipped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readSources, sourceOf, unusedExports } from '../architecture/unused-exports.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sources = (files: Record<string, string>) => new Map(Object.entries(files).map(([f, text]) => [f, sourceOf(f, text)]));

describe('exports', () => {
  it('every export in the repository is referenced somewhere', () => {
    const problems = unusedExports(readSources(root));
    assert.deepEqual(problems, [], `exports referenced nowhere (remove them):\n${problems.join('\n')}`);
  });

  it('the checker names an export no file uses, and counts every kind of use', () => {
    const problems = unusedExports(
      sources({
        'a/lib.ts': [
          `export const USED_BY_NAME = 1;`,
          `export const USED_INSIDE = 2; const twice = USED_INSIDE * 2;`,
          `export function unused(): void {}`,
          `export interface Unused {}`,
          `export type UsedType = string;`,
          `export default function main() {}`,
          `export const VIA_NAMESPACE = 3;`,
          `export const VIA_DYNAMIC = 4;`,
          `export const VIA_REEXPORT = 5;`,
        ].join('\n'),
        'b/user.ts': `import main, { USED_BY_NAME, type UsedType } from '../a/lib.ts';\nimport * as lib from '../a/lib.ts';\nconsole.log(lib.VIA_NAMESPACE);`,
        'b/lazy.ts': `const { VIA_DYNAMIC } = await import('../a/lib.ts');`,
        'b/index.ts': `export { VIA_REEXPORT } from '../a/lib.ts';\nexport const ALSO_UNUSED = 0;`,
        'c/all.ts': `export const EVERYTHING = 1;`,
        'c/barrel.ts': `export * from './all.ts';\nexport { EVERYTHING as default };`,
        'conformance/cases/x.case.ts': `export default {};`,
      }),
    );
    assert.deepEqual(problems, ['a/lib.ts: unused', 'a/lib.ts: Unused', 'b/index.ts: ALSO_UNUSED', 'c/barrel.ts: default']);
  });
});
