// openapi.yaml is a valid OpenAPI 3.1 document by a standard validator, and
// keeps the properties the rest of the project relies on: unique operation
// ids, clauses that exist in spec.md, and a role or an explicit "public" on
// every operation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { clauses } from '../clauses.ts';
import { openApiDocument, operations } from '../openapi.ts';
import { ROLES } from '../records.ts';
import { compileSchema } from '../schemas.ts';

describe('openapi.yaml', () => {
  it('[ops-openapi] validates as OpenAPI 3.1 with @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocument()) as unknown as Record<string, unknown>);
    assert.equal(validator.version, '3.1');
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
  });

  it('[ops-openapi] operation ids are unique, so a route table can key handlers by them', () => {
    const ids = operations().map((e) => e.operation.operationId);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
    );
  });

  it('[ops-openapi] every operation cites existing spec.md clauses and names only contract roles', () => {
    const known = clauses();
    for (const entry of operations()) {
      const cited = entry.operation['x-fleetproof-clauses'] ?? [];
      assert.ok(cited.length > 0, `${entry.operation.operationId} cites no clause`);
      for (const id of cited) assert.ok(known.has(id), `${entry.operation.operationId} cites unknown clause ${id}`);
      for (const role of entry.roles ?? [])
        assert.ok((ROLES as readonly string[]).includes(role), `${entry.operation.operationId}: unknown role ${role}`);
    }
  });

  it('[error-body] every JSON response schema compiles under strict ajv', () => {
    const doc = openApiDocument();
    for (const entry of operations()) {
      for (const [status, response] of Object.entries(entry.operation.responses)) {
        const ref = (response as { $ref?: string }).$ref;
        const resolved = ref ? doc.components.responses[ref.replace('#/components/responses/', '')] : response;
        const schema = (resolved as { content?: Record<string, { schema: unknown }> }).content?.['application/json']?.schema;
        if (schema !== undefined) assert.doesNotThrow(() => compileSchema(schema), `${entry.operation.operationId} ${status}`);
      }
    }
  });
});
