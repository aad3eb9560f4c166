// A schema violation names the field and what it should have held, so a
// vendor reading "GET /version" refused sees the fix, not ajv's bare words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileSchema, describeViolation } from '../schemas.ts';

test('a const names the one value it allows, an unknown field is named', () => {
  const validate = compileSchema({
    type: 'object',
    properties: { contract: { const: 'fleetproof-registry/v1' } },
    additionalProperties: false,
  });
  assert.equal(validate({ contract: 'fleetproof-registry/v2' }), false);
  assert.equal(describeViolation(validate.errors).message, '/contract must be equal to constant "fleetproof-registry/v1"');
  assert.equal(validate({ contract: 'fleetproof-registry/v1', extra: 1 }), false);
  assert.equal(describeViolation(validate.errors).message, 'value must NOT have additional properties (extra)');
});
