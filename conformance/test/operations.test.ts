// The typed operation table of the harness against openapi.yaml: the same
// operations, path parameters and query parameters, so neither can drift.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { operations } from '../../contract/openapi.ts';
import { OPERATION_IDS } from '../../contract/operations.ts';

const source = ts.createSourceFile(
  'operations.ts',
  readFileSync(new URL('../../contract/operations.ts', import.meta.url), 'utf8'),
  ts.ScriptTarget.Latest,
  true,
);
const table = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Operations');

/** The four type arguments of one `name: Op<P, Q, B, R>;` member of the Operations interface, as written. */
function entryOf(op: string): string[] {
  const member = table?.members.find((m) => m.name !== undefined && ts.isIdentifier(m.name) && m.name.text === op);
  const type = member && ts.isPropertySignature(member) ? member.type : undefined;
  assert.ok(type && ts.isTypeReferenceNode(type) && type.typeArguments, `operations.ts has no entry for ${op}`);
  const args = type.typeArguments.map((a) => a.getText(source));
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
