import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson } from '../../../contract/canonical-json.js';
import { digestOf } from '../../../contract/digest.ts';
import { manifestFacts, sizedCapabilityDefinition } from '../digest.ts';

const manifest = {
  profiles: ['p.two', 'p.one'],
  capabilities: [
    { id: 'cap:b', name: 'B', kind: 'tool' as const, description: 'ünïcode ✓ "quoted"', input_schema: { z: 1, a: [true, null, 2.5] } },
    { id: 'cap:a', name: 'A', kind: 'agent' as const, input_schema: true, output_schema: { type: 'object' } },
  ],
};

test('[digest-canonical-json] a manifest assembled from its capabilities serialises as a whole one does', () => {
  const assembled = manifestFacts(
    manifest,
    manifest.capabilities.map((c) => sizedCapabilityDefinition(c).canonicalCapability),
  );
  const whole = manifestFacts(manifest);
  assert.deepEqual(assembled, whole);
  assert.equal(whole.digest, digestOf(manifest));
  assert.equal(whole.size, Buffer.byteLength(canonicalJson(manifest), 'utf8'));
});

test('[digest-capability] a definition carries the digests of its capability and schemas, and its canonical size', () => {
  const cap = manifest.capabilities[0]!;
  const { definition, size } = sizedCapabilityDefinition(cap);
  assert.equal(definition.contract_digest, digestOf(cap));
  assert.equal(definition.schema_digest, digestOf({ input: cap.input_schema, output: null }));
  assert.equal(size, Buffer.byteLength(canonicalJson(definition), 'utf8'));
});
