// Which request bodies need the nesting limit: only those whose schema admits
// values of any depth ([error-no-server-error-on-input]).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operations } from '../../../contract/openapi.ts';
import { admitsOpenContent } from '../open-content.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('open content', () => {
  it('[error-no-server-error-on-input] closed records are bounded; JSON Schema values and batch items are open', () => {
    for (const name of [
      'ResolveRequest',
      'SettlementRequest',
      'HealthReport',
      'ReplicaProvision',
      'ConnectorInstance',
      'CapabilityBinding',
      'AdmissionPolicy',
    ]) {
      assert.equal(admitsOpenContent(ref(name)), false, name);
    }
    for (const name of ['VersionAdmission', 'BatchRequest', 'JsonSchemaValue', 'Capability'])
      assert.equal(admitsOpenContent(ref(name)), true, name);
  });

  it('[error-no-server-error-on-input] anything not provably bounded counts as open', () => {
    assert.equal(admitsOpenContent(true), true);
    assert.equal(admitsOpenContent({}), true);
    assert.equal(admitsOpenContent({ type: 'array' }), true);
    assert.equal(admitsOpenContent({ type: 'object', properties: {} }), true);
    assert.equal(
      admitsOpenContent({ type: 'object', additionalProperties: false, properties: { x: { type: ['string', 'array'] } } }),
      true,
    );
    assert.equal(admitsOpenContent({ oneOf: [{ type: 'string' }, { type: 'object' }] }), true);
    assert.equal(admitsOpenContent({ oneOf: [{ type: 'string' }, { type: 'null' }] }), false);
    assert.equal(admitsOpenContent({ enum: [[1], [2]] }), false);
  });

  it('[wire-closed-records] the operations that take open bodies are exactly the version admission and the batch', () => {
    const open = operations()
      .filter(
        (e) =>
          e.operation.requestBody &&
          admitsOpenContent(e.operation.requestBody.content['application/json']!.schema as Record<string, unknown>),
      )
      .map((e) => e.operation.operationId);
    assert.deepEqual(open.sort(), ['admitVersion', 'applyBatch']);
  });
});
