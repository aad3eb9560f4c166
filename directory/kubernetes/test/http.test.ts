// The Kubernetes provider over real HTTP: the undici executor against a fake
// API server on loopback, with chunked watch streams.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { rejectsOutcome } from '../../test/kit/assert-outcome.ts';
import { referenceTarget } from '../../test/kit/fixtures.ts';
import type { KubernetesBinding } from '../binding.ts';
import { KubernetesDirectory } from '../directory.ts';
import { KubernetesRequest } from '../executor.ts';
import { FakeKubeApiServer } from './support/fake-apiserver.ts';
import { serviceObject, sliceObject, testBinding, type PodEndpoint } from './support/objects.ts';
import { UndiciRequestExecutor } from '../undici-executor.ts';

const TOKEN = 'test-token';
let server: FakeKubeApiServer;
let b: KubernetesBinding;
const executors: UndiciRequestExecutor[] = [];

before(async () => {
  server = await FakeKubeApiServer.start({ token: TOKEN });
  b = testBinding({ apiOrigin: server.origin });
});
after(async () => {
  await Promise.all(executors.map((e) => e.close()));
  await server.close();
});

function directory(token = TOKEN): KubernetesDirectory {
  const executor = new UndiciRequestExecutor({ origin: server.origin, bearerToken: token });
  executors.push(executor);
  return new KubernetesDirectory({ bindings: [b], executor });
}

const pod = (uid: string, address: string, conditions?: PodEndpoint['conditions']): PodEndpoint => ({
  uid,
  addresses: [address],
  ...(conditions ? { conditions } : {}),
});
const putSlice = (name: string, endpoints: PodEndpoint[]) => server.putSlice(sliceObject(b, { name, endpoints }));

/** Resets the cluster to one Service with one slice of two ready pods. */
function resetCluster(serviceUid = b.serviceUid): void {
  for (const name of ['alpha-1', 'alpha-2']) {
    try {
      server.deleteSlice(b.namespace, name);
    } catch {
      // not there
    }
  }
  try {
    server.deleteService(b.namespace, b.serviceName);
  } catch {
    // not there
  }
  server.putService(serviceObject(b, { uid: serviceUid }));
  putSlice('alpha-1', [pod('pod-a', '10.0.0.1'), pod('pod-b', '10.0.0.2')]);
}

test('list and chunked watch streams follow pods as they change', async () => {
  resetCluster();
  const before = server.requests.length;
  const { initial, watch } = await directory().observe(referenceTarget());
  assert.deepEqual(
    initial.instances.map((i) => [i.id, i.state]),
    [
      ['pod-a', 'ready'],
      ['pod-b', 'ready'],
    ],
  );
  const sent = server.requests.slice(before);
  assert.equal(sent.length, 4);
  assert.ok(
    sent.every((r) => r.authorization === `Bearer ${TOKEN}`),
    'the executor authenticates every request',
  );
  assert.equal(sent[2]!.query['resourceVersion'], initial.revision.sourceTokens[0]);
  assert.equal(sent[3]!.query['resourceVersion'], initial.revision.sourceTokens[1]);

  putSlice('alpha-1', [pod('pod-a', '10.0.0.1', { ready: false, serving: true, terminating: true }), pod('pod-b', '10.0.0.2')]);
  const draining = await watch.next();
  assert.deepEqual(
    draining.upserts.map((i) => [i.id, i.state]),
    [['pod-a', 'draining']],
  );
  putSlice('alpha-1', [pod('pod-b', '10.0.0.2')]);
  const removed = await watch.next();
  assert.deepEqual(removed.deletedInstanceIds, ['pod-a']);
  putSlice('alpha-2', [pod('pod-c', '10.0.0.3')]);
  const added = await watch.next();
  assert.deepEqual(
    added.upserts.map((i) => i.id),
    ['pod-c'],
  );
  server.deleteSlice(b.namespace, 'alpha-2');
  assert.deepEqual((await watch.next()).deletedInstanceIds, ['pod-c']);
  assert.deepEqual(
    [draining, removed, added].map((c) => c.revision.localOrder),
    [1, 2, 3],
  );
  watch.close();
});

test('resharding duplicates fold silently until the topology really changes', async () => {
  resetCluster();
  const { watch } = await directory().observe(referenceTarget());
  // The controller moves pod-b into a new slice: for a while it is in both.
  putSlice('alpha-2', [pod('pod-b', '10.0.0.2')]);
  putSlice('alpha-1', [pod('pod-a', '10.0.0.1')]);
  putSlice('alpha-1', [pod('pod-a', '10.0.0.1', { ready: false })]);
  const change = await watch.next();
  assert.equal(change.revision.localOrder, 1, 'the reshard produced no change');
  assert.deepEqual(
    change.upserts.map((i) => [i.id, i.state]),
    [['pod-a', 'unavailable']],
  );
  assert.deepEqual(
    change.snapshot.instances.map((i) => i.id),
    ['pod-a', 'pod-b'],
  );
  // A conflicting copy (pod-b not ready in one slice only) is invalid data.
  putSlice('alpha-1', [pod('pod-a', '10.0.0.1', { ready: false }), pod('pod-b', '10.0.0.2', { ready: false })]);
  await rejectsOutcome(watch.next(), 'invalid', 'invalid_input');
});

test('expiry: an in-stream 410 is stale, and observing again relists', async () => {
  resetCluster();
  const dir = directory();
  const first = await dir.observe(referenceTarget());
  server.compact();
  server.sendStatus(410);
  await rejectsOutcome(first.watch.next(), 'stale', 'resource_version_expired');
  const again = await dir.observe(referenceTarget());
  assert.equal(again.initial.state, 'populated');
  assert.equal(again.initial.revision.localOrder, 0);
  again.watch.close();
});

test('a watch-open answered 410 makes observe stale', async () => {
  resetCluster();
  server.failNext(410, (r) => r.query['watch'] === 'true' && r.path.endsWith('/endpointslices'));
  await rejectsOutcome(directory().observe(referenceTarget()), 'stale');
  // The server learns of the client's close asynchronously; wait for it, within bounds.
  for (let waited = 0; server.openWatches > 0 && waited < 5000; waited += 20) await delay(20);
  assert.equal(server.openWatches, 0, 'the Service watch already opened was released');
});

test('any other status event interrupts the watch; a server-side end is stream_eof', async () => {
  resetCluster();
  const a = await directory().observe(referenceTarget());
  server.sendStatus(500);
  await rejectsOutcome(a.watch.next(), 'watch_interrupted', 'watch_status_error');
  const b2 = await directory().observe(referenceTarget());
  server.endWatches();
  await rejectsOutcome(b2.watch.next(), 'watch_interrupted', 'stream_eof');
});

test('a Service deleted and re-created with a new UID: target_deleted, then invalid on the next observe', async () => {
  resetCluster();
  const dir = directory();
  const { watch } = await dir.observe(referenceTarget());
  server.deleteService(b.namespace, b.serviceName);
  const deleted = await watch.next();
  assert.equal(deleted.kind, 'target_deleted');
  assert.equal(deleted.snapshot.state, 'missing');
  await rejectsOutcome(watch.next(), 'closed');
  server.putService(serviceObject(b, { uid: 'svc-uid-recreated' }));
  // The binding names the old UID: the new Service is not silently adopted.
  await rejectsOutcome(dir.observe(referenceTarget()), 'invalid', 'invalid_input');
  await rejectsOutcome(dir.snapshot(referenceTarget()), 'invalid', 'invalid_input');
});

test('a missing Service stays observable and its appearance is a state change', async () => {
  for (const name of ['alpha-1', 'alpha-2']) {
    try {
      server.deleteSlice(b.namespace, name);
    } catch {
      // not there
    }
  }
  try {
    server.deleteService(b.namespace, b.serviceName);
  } catch {
    // not there
  }
  const { initial, watch } = await directory().observe(referenceTarget());
  assert.equal(initial.state, 'missing');
  server.putService(serviceObject(b));
  const change = await watch.next();
  assert.equal(change.kind, 'state_changed');
  assert.equal(change.previousState, 'missing');
  watch.close();
});

test('credentials and authority: a wrong token is unauthorized, redirects are not followed', async () => {
  resetCluster();
  await rejectsOutcome(directory('wrong-token').snapshot(referenceTarget()), 'unauthorized', 'http_unauthorized');
  const elsewhere = await FakeKubeApiServer.start();
  try {
    server.failNext(307, () => true, { location: `${elsewhere.origin}/api/v1/namespaces/connectors/services` });
    await rejectsOutcome(directory().snapshot(referenceTarget()), 'invalid', 'invalid_input');
    assert.equal(elsewhere.requests.length, 0, 'the redirect target was never contacted');
    const executor = new UndiciRequestExecutor({ origin: server.origin });
    executors.push(executor);
    await assert.rejects(executor.execute(new KubernetesRequest(`${elsewhere.origin}/api`, {}), new AbortController().signal));
    assert.equal(elsewhere.requests.length, 0);
    server.failNext(503);
    const count = server.requests.length;
    await rejectsOutcome(directory().snapshot(referenceTarget()), 'unavailable', 'provider_unavailable');
    assert.equal(server.requests.length, count + 1, 'exactly one attempt');
  } finally {
    await elsewhere.close();
  }
  assert.throws(() => new UndiciRequestExecutor({ origin: `${server.origin}/` }));
});

test('an unreachable API server is unavailable', async () => {
  const gone = await FakeKubeApiServer.start();
  const origin = gone.origin;
  await gone.close();
  const executor = new UndiciRequestExecutor({ origin });
  executors.push(executor);
  const dir = new KubernetesDirectory({ bindings: [testBinding({ apiOrigin: origin })], executor });
  await rejectsOutcome(dir.snapshot(referenceTarget()), 'unavailable', 'provider_unavailable');
});
