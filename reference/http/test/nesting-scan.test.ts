// The nesting scan over raw bytes ([wire-nesting]): it agrees with the
// parsed value's depth however the bytes are split into chunks, and never
// counts a bracket inside a string.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { nestingOf } from '../body-nesting.ts';
import { NestingScan } from '../nesting-scan.ts';

function scanned(text: string, maxDepth: number, cuts: number[] = []): boolean {
  const bytes = Buffer.from(text);
  const scan = new NestingScan(maxDepth);
  let from = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    if (!scan.accepts(bytes.subarray(from, cut))) return false;
    from = cut;
  }
  return true;
}

describe('nesting scan', () => {
  it('[wire-nesting] 128 levels are accepted and 129 refused', () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    assert.equal(scanned(nested(128), 128), true);
    assert.equal(scanned(nested(129), 128), false);
    assert.equal(scanned(`{"a":${nested(127)}}`, 128), true);
    assert.equal(scanned(`{"a":${nested(128)}}`, 128), false);
  });

  it('[wire-nesting] brackets inside strings, escaped quotes and escaped backslashes do not count', () => {
    assert.equal(scanned(JSON.stringify({ s: '[[[[{{{{' }), 1), true);
    assert.equal(scanned(JSON.stringify({ s: 'a"[[[' }), 1), true);
    assert.equal(scanned(JSON.stringify({ s: 'a\\', t: [[1]] }), 2), false);
    assert.equal(scanned(JSON.stringify({ s: 'a\\"[[' }), 1), true);
  });

  it('[wire-nesting] an escape split across two chunks is carried over', () => {
    const text = '{"s":"x\\"[[[[","t":1}';
    for (let cut = 0; cut <= text.length; cut++) assert.equal(scanned(text, 1, [cut]), true, `cut at ${cut}`);
  });

  it('[wire-nesting] agrees with the depth of the parsed value, however the bytes are chunked', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 8 }),
        fc.integer({ min: 0, max: 9 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (value, maxDepth, cuts) => {
          const text = JSON.stringify(value);
          assert.equal(scanned(text, maxDepth, cuts), nestingOf(value) <= maxDepth);
        },
      ),
      { numRuns: 500 },
    );
  });
});
