import assert from 'node:assert/strict';
import { test } from 'node:test';
import { throwsOutcome } from '../../test/kit/assert-outcome.ts';
import { deletedSlice } from '../normalize.ts';
import { sliceObject, statusObject, testBinding } from './support/objects.ts';
import { decodeEnvelope, decodeList, statusOutcome } from '../wire.ts';

const b = testBinding();
const bytes = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

test('a delete event yields the slice UID and resourceVersion, checked against the binding', () => {
  const object = sliceObject(b, { name: 'alpha-1', uid: 'slice-uid-1', resourceVersion: 'rv-7', endpoints: [] });
  delete object['addressType'];
  assert.deepEqual(deletedSlice(object, b), { uid: 'slice-uid-1', resourceVersion: 'rv-7' });
  throwsOutcome(() => deletedSlice({ ...object, metadata: { ...(object['metadata'] as object), namespace: 'elsewhere' } }, b), 'invalid');
  throwsOutcome(() => deletedSlice(sliceObject(b, { name: 'alpha-1', endpoints: [] }), b), 'invalid', 'invalid_input');
});

test('envelopes: exactly one JSON value of a known type with an object', () => {
  assert.deepEqual(decodeEnvelope('{"type":"MODIFIED","object":{"a":1}}'), { type: 'MODIFIED', object: { a: 1 } });
  for (const line of [
    '',
    '{',
    '{"type":"ADDED","object":{"a":1}}{}',
    '{"type":"ADDED"}',
    '{"type":"ADDED","object":{}}',
    '{"type":"BOOKMARK","object":{"a":1}}',
    '[1]',
    '{"type":"added","object":{"a":1}}',
  ]) {
    throwsOutcome(() => decodeEnvelope(line), 'watch_interrupted', 'watch_event_invalid');
  }
});

test('statuses: 410 is stale, any other code a status error, a malformed one invalid', () => {
  assert.equal(statusOutcome(statusObject(410)).outcome, 'stale');
  for (const code of [0, 200, 401, 500]) assert.equal(statusOutcome(statusObject(code)).reason, 'watch_status_error');
  assert.equal(statusOutcome({ kind: 'Status' }).reason, 'watch_status_error', 'no code is code 0');
  throwsOutcome(() => statusOutcome({ kind: 'Status', code: 4.1 }), 'watch_interrupted', 'watch_event_invalid');
  throwsOutcome(() => statusOutcome({ kind: 'Pod', code: 410 }), 'watch_interrupted', 'watch_event_invalid');
});

test('lists need a resourceVersion, no continuation, and object items', () => {
  assert.deepEqual(decodeList(bytes({ metadata: { resourceVersion: '12' }, items: [{ a: 1 }] })), {
    resourceVersion: '12',
    items: [{ a: 1 }],
  });
  assert.deepEqual(decodeList(bytes({ metadata: { resourceVersion: '12', continue: '' }, items: null })).items, []);
  for (const doc of [
    { metadata: { resourceVersion: '1', continue: 'c' }, items: [] },
    { metadata: {}, items: [] },
    { items: [] },
    { metadata: { resourceVersion: '1' }, items: [1] },
    'not json',
    [1],
  ]) {
    throwsOutcome(() => decodeList(bytes(doc)), 'invalid', 'invalid_input');
  }
  throwsOutcome(() => decodeList(Buffer.from([0x7b, 0xff, 0x7d])), 'invalid', 'invalid_input');
});
