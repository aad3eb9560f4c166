// How deep each operation's body may nest, read from its schema: closed
// records are bounded by their deepest legal value, open content is not
// ([wire-nesting], [error-no-server-error-on-input]).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operations } from '../../../contract/openapi.ts';
import { componentValidator } from '../../../contract/schemas.ts';
import { deepestNesting, nestingOf } from '../body-nesting.ts';
import { ManualClock } from '../../domain/time.ts';
import { MemoryStore } from '../../store/memory/memory-store.ts';
import { b, T0, World } from '../../store/test/behaviour/world.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('body nesting', () => {
  it('[wire-nesting] nesting counts the outermost container as level 1', () => {
    assert.equal(nestingOf('text'), 0);
    assert.equal(nestingOf({}), 1);
    assert.equal(nestingOf([[], { a: [1] }]), 3);
  });

  it('[error-no-server-error-on-input] closed records are bounded by their deepest member; JSON Schema values and batch items are open', () => {
    const bounds = {
      ResolveRequest: 2,
      SettlementRequest: 5,
      HealthReport: 1,
      ReplicaProvision: 2,
      ConnectorInstance: 1,
      AdmissionPolicy: 1,
    };
    for (const [name, depth] of Object.entries(bounds)) assert.equal(deepestNesting(ref(name)), depth, name);
    for (const name of ['VersionAdmission', 'BatchRequest', 'JsonSchemaValue', 'Capability'])
      assert.equal(deepestNesting(ref(name)), Infinity, name);
  });

  it('[wire-nesting] a settlement under an admission policy reaches its bound exactly', async () => {
    const clock = new ManualClock(T0);
    const world = new World(new MemoryStore({ clock: clock.now }), clock);
    await world.store.putAdmissionPolicy(b.policy('policy-deep', { max_tenant_in_flight: 5 }));
    const fleet = await world.fleet({ name: 'deep', quotaPolicyRef: 'policy-deep' });
    const view = await world.resolve('tenant-a', 'act-deep', fleet.capabilityIds[0]!, { region: 'global' });
    const settlement = { assignment: view.assignment, outcome: 'completed' };
    assert.ok(view.assignment.admission.base_scopes.length > 0, 'the policy reserves scopes');
    assert.ok(componentValidator('SettlementRequest')(settlement), 'a legal settlement');
    assert.equal(nestingOf(settlement), deepestNesting(ref('SettlementRequest')));
    assert.equal(nestingOf({ action_id: 'a', capability_id: 'c', topology: { region: 'global' } }), deepestNesting(ref('ResolveRequest')));
  });

  it('[error-no-server-error-on-input] anything not provably bounded counts as open', () => {
    assert.equal(deepestNesting(true), Infinity);
    assert.equal(deepestNesting({}), Infinity);
    assert.equal(deepestNesting({ type: 'array' }), Infinity);
    assert.equal(deepestNesting({ type: 'object', properties: {} }), Infinity);
    assert.equal(
      deepestNesting({ type: 'object', additionalProperties: false, properties: { x: { type: ['string', 'array'] } } }),
      Infinity,
    );
    assert.equal(deepestNesting({ oneOf: [{ type: 'string' }, { type: 'object' }] }), Infinity);
    assert.equal(deepestNesting({ type: 'array', prefixItems: [{ type: 'array' }], items: false }), Infinity);
    assert.equal(deepestNesting({ $dynamicRef: '#node' }), Infinity);
  });

  it('[error-no-server-error-on-input] every keyword that lets a value nest deeper is counted', () => {
    assert.equal(deepestNesting({ oneOf: [{ type: 'string' }, { type: 'null' }] }), 0);
    assert.equal(deepestNesting({ enum: [[1], [[2]]] }), 2);
    assert.equal(deepestNesting({ const: { a: { b: 1 } } }), 2);
    assert.equal(deepestNesting({ type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' } } }), 2);
    const patterned = {
      type: 'object',
      additionalProperties: false,
      patternProperties: { '^x': { type: 'array', items: { type: 'string' } } },
    };
    assert.equal(deepestNesting(patterned), 2);
    assert.equal(deepestNesting({ type: 'array', items: { type: 'string' }, prefixItems: [{ type: 'array', items: false }] }), 2);
    // Every branch of allOf must pass, so the shallowest bounds the value.
    assert.equal(deepestNesting({ allOf: [{ type: 'array', items: { type: 'integer' } }, {}] }), 1);
  });

  it('[wire-closed-records] the operations that take open bodies are exactly the version admission and the batch', () => {
    const open = operations()
      .filter(
        (e) =>
          e.operation.requestBody &&
          deepestNesting(e.operation.requestBody.content['application/json']!.schema as Record<string, unknown>) === Infinity,
      )
      .map((e) => e.operation.operationId);
    assert.deepEqual(open.sort(), ['admitVersion', 'applyBatch']);
  });
});
