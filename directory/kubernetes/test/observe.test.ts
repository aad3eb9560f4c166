import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { KubernetesDirectory } from '../directory.ts';
import { rejectsOutcome } from '../../test/kit/assert-outcome.ts';
import { referenceTarget } from '../../test/kit/fixtures.ts';
import { FixtureExecutor, WatchStream, type FixtureReply } from './support/fixture-executor.ts';
import { serviceObject, sliceObject, statusObject, testBinding, type PodEndpoint } from './support/objects.ts';
import { listReplies, observeReplies, type ListSpec } from './support/replies.ts';
import type { KubernetesBinding } from '../binding.ts';

const b = testBinding();
const slice = (name: string, rv: string, endpoints: PodEndpoint[], binding: KubernetesBinding = b) =>
  sliceObject(binding, { name, resourceVersion: rv, endpoints });
const podA = (conditions?: PodEndpoint['conditions']): PodEndpoint => ({
  uid: 'pod-a',
  addresses: ['10.0.0.1'],
  ...(conditions !== undefined ? { conditions } : {}),
});

async function observeWith(spec: ListSpec = {}, binding: KubernetesBinding = b) {
  const opened = observeReplies(binding, spec);
  const executor = FixtureExecutor.script(opened.replies);
  const directory = new KubernetesDirectory({ bindings: [binding], executor });
  const observation = await directory.observe(referenceTarget());
  return { ...opened, executor, directory, observation, watch: observation.watch };
}

/** Lets queued stream data reach the session before checking for silence. */
const settle = () => delay(20);

test('observe lists once, watches each source from its own list resourceVersion, and ends stale on 410', async () => {
  const o = await observeWith({ slices: [slice('alpha-1', 'slice-rv-1', [podA()])] });
  assert.equal(o.executor.requests.length, 4);
  assert.ok(
    !('resourceVersion' in o.executor.requestAt(0).query) && !('resourceVersion' in o.executor.requestAt(1).query),
    'lists carry no resourceVersion',
  );
  assert.deepEqual(o.executor.requestAt(2).query, { fieldSelector: 'metadata.name=alpha', resourceVersion: 'service-rv', watch: 'true' });
  assert.equal(o.executor.requestAt(3).query['resourceVersion'], 'slice-rv');
  assert.equal(o.executor.requestAt(3).query['watch'], 'true');
  assert.equal(o.observation.initial.state, 'populated');

  // A Service MODIFIED that changes nothing is silent.
  o.service.event('MODIFIED', serviceObject(b, { resourceVersion: 'service-rv-2' }));
  await settle();
  o.slices.event('MODIFIED', slice('alpha-1', 'slice-rv-2', [podA({ ready: false, serving: true, terminating: true })]));
  const change = await o.watch.next();
  assert.equal(change.kind, 'instances_changed');
  assert.equal(change.revision.localOrder, 1, 'the silent event used no local order');
  assert.deepEqual(change.revision.sourceTokens, ['service-rv-2', 'slice-rv-2']);
  assert.equal(change.upserts[0]!.state, 'draining');
  assert.deepEqual(
    change.snapshot.instances.map((i) => i.state),
    ['draining'],
  );

  o.service.event('ERROR', statusObject(410));
  await rejectsOutcome(o.watch.next(), 'stale', 'resource_version_expired');
  assert.ok(o.service.destroyed && o.slices.destroyed, 'both streams are released');
  await rejectsOutcome(o.watch.next(), 'stale');
});

test('a slice resourceVersion bump that leaves the topology alone is silent', async () => {
  const o = await observeWith({ slices: [slice('alpha-1', 'r1', [podA()])] });
  o.slices.event('MODIFIED', slice('alpha-1', 'r2', [podA()]));
  await settle();
  o.slices.event('MODIFIED', slice('alpha-1', 'r3', [podA({ ready: false })]));
  const change = await o.watch.next();
  assert.equal(change.revision.localOrder, 1);
  assert.deepEqual(change.revision.sourceTokens, ['service-rv', 'r3']);
  o.watch.close();
});

test('owner deletion delivers target_deleted with a missing snapshot, then closed', async () => {
  const o = await observeWith({ slices: [slice('alpha-1', 'r1', [podA()])] });
  o.service.event('DELETED', serviceObject(b, { resourceVersion: 'service-rv-9' }));
  const change = await o.watch.next();
  assert.equal(change.kind, 'target_deleted');
  assert.equal(change.snapshot.state, 'missing');
  assert.deepEqual(change.snapshot.instances, []);
  assert.deepEqual(change.revision.sourceTokens, ['service-rv-9', 'slice-rv']);
  await rejectsOutcome(o.watch.next(), 'closed');
  assert.ok(o.service.destroyed && o.slices.destroyed);
});

test('a Service that appears turns missing into empty with an explicit state change', async () => {
  const o = await observeWith({ service: null });
  assert.equal(o.observation.initial.state, 'missing');
  o.service.event('ADDED', serviceObject(b, { resourceVersion: 'service-rv-2' }));
  const change = await o.watch.next();
  assert.equal(change.kind, 'state_changed');
  assert.equal(change.previousState, 'missing');
  assert.equal(change.snapshot.state, 'empty');
  assert.deepEqual([change.upserts.length, change.deletedInstanceIds.length], [0, 0]);
  o.slices.event('ADDED', slice('alpha-1', 'r2', [podA()]));
  const populated = await o.watch.next();
  assert.equal(populated.kind, 'instances_changed');
  assert.equal(populated.revision.localOrder, 2);
  o.slices.event('DELETED', slice('alpha-1', 'r3', [podA()]));
  const emptied = await o.watch.next();
  assert.deepEqual(emptied.deletedInstanceIds, ['pod-a']);
  assert.equal(emptied.snapshot.state, 'empty');
  o.watch.close();
});

test('a Service appearing over existing slices is carried by upserts', async () => {
  const o = await observeWith({ service: null, slices: [slice('alpha-1', 'r1', [podA()])] });
  assert.equal(o.observation.initial.state, 'missing');
  o.service.event('ADDED', serviceObject(b, { resourceVersion: 'service-rv-2' }));
  const change = await o.watch.next();
  assert.equal(change.kind, 'instances_changed');
  assert.deepEqual(
    change.upserts.map((i) => i.id),
    ['pod-a'],
  );
  o.watch.close();
});

test('after the watch opens, only 410 is stale; every other status interrupts it', async () => {
  for (const code of [0, 400, 401, 403, 429, 500, 504]) {
    for (const source of ['service', 'slices'] as const) {
      const o = await observeWith();
      o[source].event('ERROR', statusObject(code));
      const err = await rejectsOutcome(o.watch.next(), 'watch_interrupted', 'watch_status_error');
      assert.ok(!err.message.includes('secret'));
    }
  }
  const o = await observeWith();
  o.slices.event('ERROR', statusObject(410));
  await rejectsOutcome(o.watch.next(), 'stale', 'resource_version_expired');
});

test('overflow and oversized lines end the watch with watch_interrupted', async () => {
  const one = testBinding({ bounds: { ...b.bounds, pendingChanges: 1 } });
  const o = await observeWith({ slices: [slice('alpha-1', 'r1', [podA()], one)] }, one);
  o.slices.event('MODIFIED', slice('alpha-1', 'r2', [podA({ ready: false })], one));
  o.slices.event('MODIFIED', slice('alpha-1', 'r3', [podA()], one));
  await settle();
  await rejectsOutcome(o.watch.next(), 'watch_interrupted', 'delivery_overflow');
  assert.ok(o.slices.destroyed);

  const tiny = testBinding({ bounds: { ...b.bounds, watchEnvelopeBytes: 16 } });
  const t = await observeWith({}, tiny);
  t.service.event('MODIFIED', serviceObject(tiny, { resourceVersion: 'r2' }));
  await rejectsOutcome(t.watch.next(), 'watch_interrupted', 'watch_event_too_large');
  // An oversized line is refused even when it never ends.
  const u = await observeWith({}, tiny);
  u.slices.write('x'.repeat(17));
  await rejectsOutcome(u.watch.next(), 'watch_interrupted', 'watch_event_too_large');
});

test('malformed envelopes, bookmarks and stream ends are interruptions; bad objects are invalid', async () => {
  const cases: Array<[string, (o: { service: WatchStream; slices: WatchStream }) => void, string, string]> = [
    ['blank line', (o) => o.service.write('\n'), 'watch_interrupted', 'watch_event_invalid'],
    ['not JSON', (o) => o.service.write('{nope\n'), 'watch_interrupted', 'watch_event_invalid'],
    ['trailing value', (o) => o.service.write('{"type":"ADDED","object":{"a":1}} {}\n'), 'watch_interrupted', 'watch_event_invalid'],
    ['no object', (o) => o.slices.write('{"type":"ADDED"}\n'), 'watch_interrupted', 'watch_event_invalid'],
    ['bookmark', (o) => o.slices.event('BOOKMARK', { metadata: { resourceVersion: 'r9' } }), 'watch_interrupted', 'watch_event_invalid'],
    ['undecodable status', (o) => o.service.event('ERROR', { kind: 'Status', code: 'gone' }), 'watch_interrupted', 'watch_event_invalid'],
    ['end of stream', (o) => o.slices.end(), 'watch_interrupted', 'stream_eof'],
    ['stream failure', (o) => o.slices.stream.destroy(new Error('reset token=secret')), 'watch_interrupted', 'stream_eof'],
    [
      'service with another UID',
      (o) => o.service.event('MODIFIED', serviceObject(b, { uid: 'svc-uid-2', resourceVersion: 'r' })),
      'invalid',
      'invalid_input',
    ],
    ['service event without resourceVersion', (o) => o.service.event('MODIFIED', serviceObject(b)), 'invalid', 'invalid_input'],
    [
      'slice delete from another namespace',
      (o) =>
        o.slices.event('DELETED', {
          ...slice('a', 'r', []),
          metadata: { ...(slice('a', 'r', [])['metadata'] as object), namespace: 'other' },
        }),
      'invalid',
      'invalid_input',
    ],
    [
      'slice with a conflicting duplicate',
      (o) => o.slices.event('ADDED', slice('a', 'r', [podA(), { uid: 'pod-b', addresses: ['10.0.0.1'] }])),
      'invalid',
      'invalid_input',
    ],
  ];
  for (const [name, act, outcome, reason] of cases) {
    const o = await observeWith();
    act(o);
    await assert.rejects(o.watch.next(), (e: { outcome?: string; reason?: string }) => e.outcome === outcome && e.reason === reason, name);
  }
});

test('a final line without a newline is still processed before the end', async () => {
  const o = await observeWith();
  o.slices.write(JSON.stringify({ type: 'ADDED', object: slice('alpha-1', 'r2', [podA()]) }));
  o.slices.end();
  assert.equal((await o.watch.next()).kind, 'instances_changed');
  await rejectsOutcome(o.watch.next(), 'watch_interrupted', 'stream_eof');
});

test('slice bounds hold on watch events too', async () => {
  const small = testBinding({ bounds: { ...b.bounds, endpointSliceCount: 1, endpointCount: 2 } });
  const tooMany = await observeWith({ slices: [slice('alpha-1', 'r1', [podA()], small)] }, small);
  tooMany.slices.event(
    'ADDED',
    sliceObject(small, { name: 'alpha-2', resourceVersion: 'r2', endpoints: [{ uid: 'pod-b', addresses: ['10.0.0.2'] }] }),
  );
  await rejectsOutcome(tooMany.watch.next(), 'invalid');
  const crowded = await observeWith({ slices: [slice('alpha-1', 'r1', [podA()], small)] }, small);
  const three = [1, 2, 3].map((i) => ({ uid: `pod-${i}`, addresses: [`10.0.1.${i}`] }));
  crowded.slices.event('MODIFIED', sliceObject(small, { name: 'alpha-1', resourceVersion: 'r2', endpoints: three }));
  await rejectsOutcome(crowded.watch.next(), 'invalid');
});

test('observe fails as a whole when a watch cannot open', async () => {
  const unavailable = FixtureExecutor.script([...listReplies(b), { status: 503 }]);
  await rejectsOutcome(new KubernetesDirectory({ bindings: [b], executor: unavailable }).observe(referenceTarget()), 'unavailable');
  assert.equal(unavailable.requests.length, 3);
  const first = new WatchStream();
  const stale = FixtureExecutor.script([...listReplies(b), { status: 200, body: first }, { status: 410 }]);
  await rejectsOutcome(new KubernetesDirectory({ bindings: [b], executor: stale }).observe(referenceTarget()), 'stale');
  assert.ok(first.destroyed, 'the opened stream is released');
});

test('closing the directory ends live observations and later calls', async () => {
  const o = await observeWith();
  const pending = o.watch.next();
  await o.directory.close();
  await rejectsOutcome(pending, 'closed');
  assert.ok(o.service.destroyed && o.slices.destroyed);
  await rejectsOutcome(o.directory.observe(referenceTarget()), 'closed');
  await o.directory.close();
});

test('a watch closed by its consumer releases the streams and stays closed', async () => {
  const o = await observeWith();
  o.watch.close();
  assert.ok(o.service.destroyed && o.slices.destroyed);
  await rejectsOutcome(o.watch.next(), 'closed');
});

test('canceling a pending observe aborts the watch-open', async () => {
  const controller = new AbortController();
  const replies: FixtureReply[] = [...listReplies(b)];
  const executor = new FixtureExecutor(async (_request, index) => {
    if (index < 2) return replies[index]!;
    controller.abort(new Error('caller gave up'));
    throw new Error('aborted');
  });
  await rejectsOutcome(
    new KubernetesDirectory({ bindings: [b], executor }).observe(referenceTarget(), { signal: controller.signal }),
    'canceled',
  );
  assert.equal(executor.requests.length, 3);
});
