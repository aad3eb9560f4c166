// The typed operation table of the harness against openapi.yaml: the same
// operations, path parameters and query parameters, so neither can drift.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { operations } from '../../contract/openapi.ts';
import { OPERATION_IDS } from '../../contract/operations.ts';

const source = readFileSync(new URL('../../contract/operations.ts', import.meta.url), 'utf8');

/** The four type arguments of one `name: Op<P, Q, B, R>;` entry of the Operations interface. */
function entryOf(op: string): string[] {
  const match = new RegExp(`\\n  ${op}: Op<([^\\n]*)>;`).exec(source);
  assert.ok(match, `operations.ts has no entry for ${op}`);
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of match[1]!) {
    if (ch === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    if ('<{('.includes(ch)) depth++;
    if ('>})'.includes(ch)) depth--;
    current += ch;
  }
  args.push(current.trim());
  assert.equal(args.length, 4, `${op}: Op<params, query, body, ok>`);
  return args;
}

describe('harness operation table', () => {
  it('names exactly the operations of openapi.yaml', () => {
    assert.deepEqual(
      [...OPERATION_IDS].sort(),
      operations()
        .map((e) => e.operation.operationId)
        .sort(),
    );
  });

  it('gives each operation the path parameters of openapi.yaml', () => {
    for (const e of operations()) {
      const params = e.parameters
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      const [paramsType] = entryOf(e.operation.operationId);
      const declared = paramsType === 'None' ? [] : [...paramsType!.matchAll(/(\w+):/g)].map((m) => m[1]!).sort();
      assert.deepEqual(declared, params, e.operation.operationId);
    }
  });

  it('declares a body exactly where openapi.yaml has a request body', () => {
    for (const e of operations()) {
      const hasBody = entryOf(e.operation.operationId)[2] !== 'never';
      assert.equal(hasBody, e.operation.requestBody !== undefined, e.operation.operationId);
    }
  });
});
