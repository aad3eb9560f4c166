import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChange, diffSnapshots, isValidChange } from '../change.ts';
import { compareEndpoints, createEndpoint } from '../endpoint.ts';
import { createInstance, deriveLifecycle, isValidInstance } from '../instance.ts';
import { createRevision, createSnapshot, isValidSnapshot, snapshotsEqual } from '../snapshot.ts';
import { createTarget, lengthPrefixedKey, targetKey, targetsEqual } from '../target.ts';
import { throwsOutcome } from './kit/assert-outcome.ts';
import { instance, instancesChanged, REFERENCE_TARGET_INPUT, referenceTarget, snapshot, tcpEndpoint } from './kit/fixtures.ts';

test('target keeps its five fields exactly and compares them all', () => {
  const t = createTarget(REFERENCE_TARGET_INPUT);
  assert.deepEqual({ ...t }, REFERENCE_TARGET_INPUT);
  assert.ok(targetsEqual(t, referenceTarget()));
  assert.ok(!targetsEqual(t, referenceTarget({ versionId: 'cver_alpha_2' })));
  assert.ok(Object.isFrozen(t));
});

test('target refuses anything that is not already exact and canonical', () => {
  const bad: Array<Partial<typeof REFERENCE_TARGET_INPUT>> = [
    { instanceId: ' cinst_alpha' },
    { versionId: 'cver\u0007' },
    { manifestDigest: `sha256:${'A'.repeat(64)}` },
    { manifestDigest: 'a'.repeat(64) },
    { audience: 'https://connector.example/mcp' },
    { audience: 'https://other.example' },
    { canonicalEndpoint: 'https://connector.example/mcp?x=1', audience: 'https://connector.example' },
    { canonicalEndpoint: 'https://connector.example/mcp#frag' },
    { canonicalEndpoint: 'https://Connector.example/mcp', audience: 'https://Connector.example' },
    { canonicalEndpoint: 'https://connector.example:443/mcp', audience: 'https://connector.example:443' },
    { canonicalEndpoint: 'https://connector.example/m%63p' },
    { canonicalEndpoint: 'https://connector.example' },
    { canonicalEndpoint: 'https://connector.example/a/../mcp' },
    { canonicalEndpoint: 'https://user@connector.example/mcp' },
    { canonicalEndpoint: 'https://connector.example./mcp', audience: 'https://connector.example.' },
    { canonicalEndpoint: 'ftp://connector.example/mcp', audience: 'ftp://connector.example' },
  ];
  for (const over of bad) throwsOutcome(() => createTarget({ ...REFERENCE_TARGET_INPUT, ...over }), 'invalid', 'invalid_input');
  // A non-default port and an IPv6 host are canonical when written canonically.
  createTarget({ ...REFERENCE_TARGET_INPUT, canonicalEndpoint: 'http://[2001:db8::1]:8080/', audience: 'http://[2001:db8::1]:8080' });
});

test('target key is the length-prefixed SHA-256 in unpadded lower-case base32', () => {
  const key = targetKey(referenceTarget());
  assert.match(key, /^[a-z2-7]{52}$/);
  assert.equal(targetKey(referenceTarget()), key, 'stable');
  // Moving a byte from one field to the next changes the key: fields are length-delimited.
  const shifted = referenceTarget({ instanceId: 'cinst_alph', versionId: 'acver_alpha_1' });
  assert.notEqual(targetKey(shifted), key);
  throwsOutcome(() => targetKey({ ...REFERENCE_TARGET_INPUT, audience: '' }), 'invalid');
});

test('stored values are copies: changing inputs or outputs never alters them', () => {
  const endpoints = [tcpEndpoint('10.0.0.2'), tcpEndpoint('10.0.0.1')];
  const metadata: Record<string, string> = { k: 'v' };
  const made = createInstance({ id: 'pod-1', endpoints, ready: true, serving: true, terminating: false, zone: 'z1', weight: 0, metadata });
  endpoints.push(tcpEndpoint('10.0.0.9'));
  (endpoints[0] as { address: string }).address = '10.9.9.9';
  metadata['k'] = 'changed';
  assert.deepEqual(
    made.endpoints.map((e) => e.address),
    ['10.0.0.1', '10.0.0.2'],
    'sorted and unaffected',
  );
  assert.equal(made.metadata['k'], 'v');
  assert.equal(made.weight, 0, 'an explicit zero weight stays present');
  assert.equal(made.zone, 'z1');
  assert.throws(() => ((made.metadata as Record<string, string>)['k'] = 'x'), TypeError);
  assert.throws(() => (made.endpoints as unknown[]).push(1), TypeError);

  const tokens = ['a', 'b'];
  const rev = createRevision(tokens, 0);
  tokens[0] = 'z';
  assert.deepEqual(rev.sourceTokens, ['a', 'b']);

  const instances = [instance('pod-2'), instance('pod-1', { endpoints: [tcpEndpoint('10.0.0.7')] })];
  const snap = snapshot('populated', instances);
  instances.pop();
  assert.deepEqual(
    snap.instances.map((i) => i.id),
    ['pod-1', 'pod-2'],
    'sorted by id, unaffected',
  );

  const upserts = [snap.instances[0]!];
  const deleted = ['pod-9'];
  const change = instancesChanged(snapshot('populated', [...snap.instances], 1), upserts, deleted);
  upserts.push(snap.instances[1]!);
  deleted.push('pod-8');
  assert.equal(change.upserts.length, 1);
  assert.deepEqual(change.deletedInstanceIds, ['pod-9']);
});

test('snapshot states stay distinct from instance lifecycle states', () => {
  const missing = snapshot('missing');
  const empty = snapshot('empty');
  assert.ok(!snapshotsEqual(missing, empty), 'a missing snapshot is never equal to an empty one');
  throwsOutcome(() => snapshot('missing', [instance('pod-1')]), 'invalid');
  throwsOutcome(() => snapshot('populated'), 'invalid');
  assert.equal(deriveLifecycle(false, true, true), 'draining');
  assert.equal(deriveLifecycle(true, false, true), 'unavailable');
  assert.equal(deriveLifecycle(true, true, false), 'ready');
});

test('lifecycle follows the whole truth table', () => {
  for (const ready of [true, false]) {
    for (const serving of [true, false]) {
      for (const terminating of [true, false]) {
        const expected = terminating ? (serving ? 'draining' : 'unavailable') : serving && ready ? 'ready' : 'unavailable';
        assert.equal(deriveLifecycle(ready, serving, terminating), expected, JSON.stringify({ ready, serving, terminating }));
        const made = createInstance({ id: 'p', endpoints: [tcpEndpoint('10.0.0.1')], ready, serving, terminating });
        assert.equal(made.state, expected);
      }
    }
  }
});

test('an instance refuses a stated lifecycle that disagrees with its conditions', () => {
  throwsOutcome(
    () =>
      createInstance({ id: 'p', endpoints: [tcpEndpoint('10.0.0.1')], ready: true, serving: true, terminating: false, state: 'draining' }),
    'invalid',
  );
  throwsOutcome(() => createInstance({ id: 'p', endpoints: [], ready: true, serving: true, terminating: false }), 'invalid');
  throwsOutcome(
    () =>
      createInstance({
        id: 'p',
        endpoints: [tcpEndpoint('10.0.0.1'), tcpEndpoint('10.0.0.1')],
        ready: true,
        serving: true,
        terminating: false,
      }),
    'invalid',
  );
});

test('an upsert must equal the copy in the result snapshot', () => {
  const result = snapshot('populated', [instance('pod-1')], 1);
  const different = instance('pod-1', { ready: false });
  throwsOutcome(() => instancesChanged(result, [different]), 'invalid');
  throwsOutcome(() => instancesChanged(result, [instance('pod-2')]), 'invalid', 'invalid_input');
  throwsOutcome(() => instancesChanged(result, [], ['pod-1']), 'invalid', 'invalid_input');
  throwsOutcome(() => instancesChanged(result, []), 'invalid', 'invalid_input');
});

test('state_changed needs a real missing<->empty transition and no delta', () => {
  const ok = createChange({
    kind: 'state_changed',
    upserts: [],
    deletedInstanceIds: [],
    previousState: 'missing',
    snapshot: snapshot('empty', [], 1),
  });
  assert.equal(ok.previousState, 'missing');
  assert.equal(ok.revision.localOrder, 1);
  const base = { kind: 'state_changed' as const, upserts: [], deletedInstanceIds: [] };
  throwsOutcome(() => createChange({ ...base, previousState: 'empty', snapshot: snapshot('empty', [], 1) }), 'invalid');
  throwsOutcome(() => createChange({ ...base, previousState: 'populated', snapshot: snapshot('empty', [], 1) }), 'invalid');
  throwsOutcome(() => createChange({ ...base, previousState: 'empty', snapshot: snapshot('populated', [instance('p')], 1) }), 'invalid');
  throwsOutcome(
    () => createChange({ ...base, deletedInstanceIds: ['p'], previousState: 'missing', snapshot: snapshot('empty', [], 1) }),
    'invalid',
  );
  throwsOutcome(() => createChange({ ...base, previousState: null, snapshot: snapshot('empty', [], 1) }), 'invalid');
});

test('target_deleted carries a missing snapshot and no delta; changes start at local order 1', () => {
  createChange({ kind: 'target_deleted', upserts: [], deletedInstanceIds: [], previousState: null, snapshot: snapshot('missing', [], 3) });
  throwsOutcome(
    () =>
      createChange({
        kind: 'target_deleted',
        upserts: [],
        deletedInstanceIds: [],
        previousState: null,
        snapshot: snapshot('empty', [], 3),
      }),
    'invalid',
  );
  throwsOutcome(
    () =>
      createChange({
        kind: 'target_deleted',
        upserts: [],
        deletedInstanceIds: ['p'],
        previousState: null,
        snapshot: snapshot('missing', [], 3),
      }),
    'invalid',
  );
  throwsOutcome(() => instancesChanged(snapshot('populated', [instance('p')], 0), [instance('p')]), 'invalid');
});

test('diff gives upserts for any changed field, deletions, state changes, or nothing', () => {
  const before = snapshot('populated', [instance('a'), instance('b', { endpoints: [tcpEndpoint('10.0.0.2')] })]);
  const after = snapshot('populated', [instance('a', { terminating: true }), instance('c', { endpoints: [tcpEndpoint('10.0.0.3')] })], 1);
  const change = diffSnapshots(before, after)!;
  assert.equal(change.kind, 'instances_changed');
  assert.deepEqual(
    change.upserts.map((i) => [i.id, i.state]),
    [
      ['a', 'draining'],
      ['c', 'ready'],
    ],
  );
  assert.deepEqual(change.deletedInstanceIds, ['b']);
  assert.equal(diffSnapshots(before, snapshot('populated', [...before.instances], 1)), null, 'no change, no event');
  const toEmpty = diffSnapshots(before, snapshot('empty', [], 1))!;
  assert.equal(toEmpty.kind, 'instances_changed', 'populated -> empty is carried by deletions');
  assert.deepEqual(toEmpty.deletedInstanceIds, ['a', 'b']);
  const appeared = diffSnapshots(snapshot('missing'), snapshot('empty', [], 1))!;
  assert.equal(appeared.kind, 'state_changed');
  assert.equal(appeared.previousState, 'missing');
});

test('validators catch corrupted retained state', () => {
  const good = structuredClone(instance('pod-1', { endpoints: [tcpEndpoint('10.0.0.1'), tcpEndpoint('10.0.0.2')], zone: 'z' }));
  assert.ok(isValidInstance(good));
  const corruptions: Array<(i: Record<string, unknown>) => void> = [
    (i) => (i['id'] = ''),
    (i) => (i['endpoints'] = []),
    (i) => (i['endpoints'] = [{ ...(i['endpoints'] as object[])[0], port: 0 }]),
    (i) => (i['endpoints'] = [...(i['endpoints'] as object[])].reverse()),
    (i) => (i['endpoints'] = [(i['endpoints'] as object[])[0], (i['endpoints'] as object[])[0]]),
    (i) => (i['state'] = 'draining'),
    (i) => (i['zone'] = ' z'),
    (i) => (i['metadata'] = { '': 'v' }),
    (i) => (i['metadata'] = { k: 'v\n' }),
  ];
  for (const corrupt of corruptions) {
    const copy = structuredClone(good) as unknown as Record<string, unknown>;
    corrupt(copy);
    assert.ok(!isValidInstance(copy), `caught ${corrupt.toString()}`);
  }
  const snap = structuredClone(snapshot('populated', [instance('a'), instance('b', { endpoints: [tcpEndpoint('10.0.0.2')] })]));
  const snapCorruptions: Array<(s: Record<string, unknown>) => void> = [
    (s) => (s['target'] = { ...(s['target'] as object), audience: 'https://x.example' }),
    (s) => (s['revision'] = { sourceTokens: [], localOrder: 0 }),
    (s) => (s['revision'] = { sourceTokens: ['has space'], localOrder: 0 }),
    (s) => (s['instances'] = [...(s['instances'] as object[])].reverse()),
    (s) => (s['instances'] = [(s['instances'] as object[])[0], (s['instances'] as object[])[0]]),
    (s) => (s['state'] = 'gone'),
    (s) => (s['state'] = 'missing'),
  ];
  for (const corrupt of snapCorruptions) {
    const copy = structuredClone(snap) as unknown as Record<string, unknown>;
    corrupt(copy);
    assert.ok(!isValidSnapshot(copy), `caught ${corrupt.toString()}`);
  }
});

test('endpoints are validated field by field and totally ordered', () => {
  const e = tcpEndpoint('10.0.0.1');
  for (const over of [
    { address: '' },
    { portName: ' x' },
    { port: 0 },
    { port: 65536 },
    { port: 1.5 },
    { protocol: 'UDP' },
    { addressType: 'FQDN' },
  ]) {
    throwsOutcome(() => createEndpoint({ ...e, ...over } as never), 'invalid');
  }
  const ordered = [
    tcpEndpoint('10.0.0.1', 80, 'a'),
    tcpEndpoint('10.0.0.1', 80, 'b'),
    tcpEndpoint('10.0.0.1', 81, 'b'),
    tcpEndpoint('10.0.0.2', 1, 'a'),
    tcpEndpoint('::1', 1, 'a'),
  ];
  for (let i = 1; i < ordered.length; i++) assert.ok(compareEndpoints(ordered[i - 1]!, ordered[i]!) < 0, `order at ${i}`);
  assert.equal(compareEndpoints(e, { ...e }), 0);
});

test('revisions need at least one safe token and a non-negative local order', () => {
  throwsOutcome(() => createRevision([], 0), 'invalid');
  throwsOutcome(() => createRevision(['a b'], 0), 'invalid');
  throwsOutcome(() => createRevision(['a'], -1), 'invalid');
  assert.equal(createRevision(['a'], 2).localOrder, 2);
  assert.ok(
    isValidSnapshot(createSnapshot({ target: referenceTarget(), revision: createRevision(['x'], 0), state: 'empty', instances: [] })),
  );
});

test('the key construction matches the published length-prefixed vector', () => {
  // The vector published with the instance directory design this follows:
  // six fields of its reference target, hashed the same way.
  const fields = ['agent-a', '1.0.0', 'release-a', 'a'.repeat(64), 'https://agent.example/a2a', 'https://agent.example'];
  assert.equal(lengthPrefixedKey(fields), 'f7nt6cxpnngsq3jmjii4h5fwo4gixmr6bk5jk2ptoh7knjxc7nmq');
  const t = referenceTarget();
  assert.equal(targetKey(t), lengthPrefixedKey([t.instanceId, t.versionId, t.manifestDigest, t.canonicalEndpoint, t.audience]));
});

test('change validation catches corrupted retained state', () => {
  const result = snapshot('populated', [instance('a'), instance('b', { endpoints: [tcpEndpoint('10.0.0.2')] })], 1);
  const good = structuredClone(instancesChanged(result, [result.instances[0]!], ['c', 'd']));
  assert.ok(isValidChange(good));
  const corruptions: Array<(c: Record<string, unknown>) => void> = [
    (c) => (c['revision'] = { sourceTokens: ['x'], localOrder: 1 }),
    (c) => (c['revision'] = { ...(c['revision'] as object), localOrder: 0 }),
    (c) => (c['snapshot'] = { ...(c['snapshot'] as object), state: 'missing' }),
    (c) => (c['upserts'] = [{ ...(c['upserts'] as object[])[0], id: '' }]),
    (c) => (c['upserts'] = [(c['upserts'] as object[])[0], (c['upserts'] as object[])[0]]),
    (c) => (c['deletedInstanceIds'] = ['d', 'c']),
    (c) => (c['deletedInstanceIds'] = ['c', 'c']),
    (c) => (c['deletedInstanceIds'] = ['a']),
    (c) => ((c['upserts'] = []), (c['deletedInstanceIds'] = [])),
    (c) => (c['previousState'] = 'empty'),
    (c) => (c['kind'] = 'exploded'),
  ];
  for (const corrupt of corruptions) {
    const copy = structuredClone(good) as unknown as Record<string, unknown>;
    corrupt(copy);
    assert.ok(!isValidChange(copy), corrupt.toString());
  }
});
