import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_GUARANTEES, KubernetesRequest } from '../executor.ts';
import { KubernetesDirectory } from '../directory.ts';
import { ADDRESS_TYPE_KEY, TARGET_LABEL, TARGET_REF_UID_KEY } from '../binding.ts';
import { rejectsOutcome, throwsOutcome } from '../../test/kit/assert-outcome.ts';
import { referenceTarget } from '../../test/kit/fixtures.ts';
import { targetsEqual } from '../../target.ts';
import { FixtureExecutor, type FixtureReply } from './support/fixture-executor.ts';
import { listOf, serviceObject, sliceObject, testBinding, type PodEndpoint } from './support/objects.ts';
import { listReplies } from './support/replies.ts';

const b = testBinding();
const directoryWith = (executor: FixtureExecutor) => new KubernetesDirectory({ bindings: [b], executor });
const slice = (name: string, endpoints: PodEndpoint[], over: Partial<Parameters<typeof sliceObject>[1]> = {}) =>
  sliceObject(b, { name, endpoints, ...over });

test('a snapshot makes exactly two list requests and keeps the topology', async () => {
  const executor = FixtureExecutor.script(
    listReplies(b, {
      slices: [slice('alpha-1', [{ uid: 'pod-a', addresses: ['10.0.0.2', '10.0.0.1'], conditions: null, zone: 'zone-a' }])],
    }),
  );
  const snap = await directoryWith(executor).snapshot(referenceTarget());
  assert.equal(snap.state, 'populated');
  assert.equal(snap.instances.length, 1);
  const pod = snap.instances[0]!;
  assert.equal(pod.id, 'pod-a');
  assert.equal(pod.state, 'ready', 'absent conditions mean ready');
  assert.deepEqual(
    pod.endpoints.map((e) => `${e.address}:${e.port}/${e.portName}/${e.protocol}`),
    ['10.0.0.1:8080/http/TCP', '10.0.0.2:8080/http/TCP'],
  );
  assert.equal(pod.zone, 'zone-a');
  assert.deepEqual(pod.metadata, { [TARGET_REF_UID_KEY]: 'pod-a', [ADDRESS_TYPE_KEY]: 'IPv4' });
  assert.equal(pod.weight, null, 'never made up');
  assert.deepEqual(snap.revision, { sourceTokens: ['service-rv', 'slice-rv'], localOrder: 0 });
  assert.ok(targetsEqual(snap.target, referenceTarget()));

  assert.equal(executor.requests.length, 2);
  const services = executor.requestAt(0);
  assert.equal(services.path, '/api/v1/namespaces/connectors/services');
  assert.deepEqual(services.query, { fieldSelector: 'metadata.name=alpha' });
  assert.equal(services.accept, 'application/json');
  const slices = executor.requestAt(1);
  assert.equal(slices.path, '/apis/discovery.k8s.io/v1/namespaces/connectors/endpointslices');
  assert.deepEqual(Object.keys(slices.query), ['labelSelector']);
  assert.ok(!slices.query['labelSelector']!.includes(TARGET_LABEL) && !slices.query['labelSelector']!.includes('binding-version'));
  assert.equal(
    slices.query['labelSelector'],
    'app.kubernetes.io/part-of=fleetproof,endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io,kubernetes.io/service-name=alpha',
  );
  for (const request of executor.requests) {
    assert.ok(request.url().startsWith('https://kube.example:6443/'));
    for (const forbidden of ['limit', 'continue', 'resourceVersionMatch', 'allowWatchBookmarks', 'sendInitialEvents', 'timeoutSeconds']) {
      assert.ok(!new URL(request.url()).searchParams.has(forbidden), forbidden);
    }
  }
  assert.ok(
    executor.bodies.every((body) => body.destroyed),
    'every list body is closed',
  );
});

test('a missing Service and a Service without slices are different snapshots', async () => {
  const missing = await directoryWith(FixtureExecutor.script(listReplies(b, { service: null }))).snapshot(referenceTarget());
  assert.equal(missing.state, 'missing');
  const empty = await directoryWith(FixtureExecutor.script(listReplies(b))).snapshot(referenceTarget());
  assert.equal(empty.state, 'empty');
  // A placeholder slice without endpoints (and without ports) is still empty.
  const placeholder = await directoryWith(
    FixtureExecutor.script(listReplies(b, { slices: [slice('alpha-0', [], { ports: [] })] })),
  ).snapshot(referenceTarget());
  assert.equal(placeholder.state, 'empty');
  // Slice data is checked even when the Service is absent.
  const hidden = listReplies(b, { service: null, slices: [slice('alpha-1', [{ uid: '', addresses: ['10.0.0.1'] }])] });
  await rejectsOutcome(directoryWith(FixtureExecutor.script(hidden)).snapshot(referenceTarget()), 'invalid');
});

test('resharded duplicates fold; conflicting duplicates are invalid', async () => {
  const folded = await directoryWith(
    FixtureExecutor.script(
      listReplies(b, {
        slices: [
          slice('alpha-1', [{ uid: 'pod-a', addresses: ['10.0.0.1'] }]),
          slice('alpha-2', [{ uid: 'pod-a', addresses: ['10.0.0.1', '10.0.0.2'] }]),
        ],
      }),
    ),
  ).snapshot(referenceTarget());
  assert.equal(folded.instances.length, 1);
  assert.deepEqual(
    folded.instances[0]!.endpoints.map((e) => e.address),
    ['10.0.0.1', '10.0.0.2'],
  );

  const conflicts: Array<[string, PodEndpoint, PodEndpoint]> = [
    ['same address under two pods', { uid: 'pod-a', addresses: ['10.0.0.1'] }, { uid: 'pod-b', addresses: ['10.0.0.1'] }],
    [
      'one pod, different readiness',
      { uid: 'pod-a', addresses: ['10.0.0.1'] },
      { uid: 'pod-a', addresses: ['10.0.0.1'], conditions: { ready: false } },
    ],
    [
      'one pod, different zone',
      { uid: 'pod-a', addresses: ['10.0.0.1'], zone: 'z1' },
      { uid: 'pod-a', addresses: ['10.0.0.1'], zone: 'z2' },
    ],
    [
      'one pod, terminating in one slice only',
      { uid: 'pod-a', addresses: ['10.0.0.1'] },
      { uid: 'pod-a', addresses: ['10.0.0.1'], conditions: { terminating: true } },
    ],
  ];
  for (const [name, first, second] of conflicts) {
    for (const order of [
      [first, second],
      [second, first],
    ]) {
      const replies = listReplies(b, { slices: [slice('alpha-1', [order[0]!]), slice('alpha-2', [order[1]!])] });
      await rejectsOutcome(directoryWith(FixtureExecutor.script(replies)).snapshot(referenceTarget()), 'invalid', 'invalid_input').catch(
        (e) => {
          throw new Error(`${name}: ${e.message}`);
        },
      );
    }
  }
});

test('HTTP failures before the watch are typed and never retried', async () => {
  const cases: Array<[FixtureReply, string, string]> = [
    [{ status: 401 }, 'unauthorized', 'http_unauthorized'],
    [{ status: 403 }, 'unauthorized', 'http_forbidden'],
    [{ status: 503 }, 'unavailable', 'provider_unavailable'],
    [{ status: 500 }, 'unavailable', 'provider_unavailable'],
    [{ status: 429 }, 'unavailable', 'rate_limited'],
    [{ status: 410 }, 'stale', 'resource_version_expired'],
    [{ status: 404 }, 'invalid', 'invalid_input'],
    [{ status: 400 }, 'invalid', 'invalid_input'],
    [{ status: 302 }, 'invalid', 'invalid_input'],
    [{ transportError: true }, 'unavailable', 'provider_unavailable'],
    [{ status: 200, body: null }, 'invalid', 'invalid_input'],
  ];
  for (const [reply, outcome, reason] of cases) {
    for (const position of [0, 1]) {
      const replies = [...listReplies(b)];
      replies[position] = reply;
      const executor = FixtureExecutor.script(replies.slice(0, position + 1));
      const err = await rejectsOutcome(directoryWith(executor).snapshot(referenceTarget()), outcome as never, reason as never);
      assert.equal(executor.requests.length, position + 1, `one attempt for ${JSON.stringify(reply)}`);
      assert.ok(!err.message.includes('secret'), 'no provider text leaks');
      assert.ok(
        executor.bodies.every((body) => body.destroyed),
        'error bodies are closed',
      );
    }
  }
});

test('list documents are checked: bounds, continuation, resourceVersion, duplicates', async () => {
  const bad: Array<[string, FixtureReply[]]> = [
    ['two services', [{ status: 200, json: listOf([serviceObject(b), serviceObject(b)], 'rv') }]],
    ['continue token', [{ status: 200, json: { metadata: { resourceVersion: 'rv', continue: 'next' }, items: [] } }]],
    ['no resourceVersion', [{ status: 200, json: { metadata: {}, items: [] } }]],
    ['resourceVersion with a space', [{ status: 200, json: { metadata: { resourceVersion: 'r v' }, items: [] } }]],
    ['not JSON', [{ status: 200, text: '{"metadata":' }]],
    ['service with another UID', [{ status: 200, json: listOf([serviceObject(b, { uid: 'svc-uid-2' })], 'rv') }]],
    ['service without markers', [{ status: 200, json: listOf([serviceObject(b, { labels: { app: 'x' } })], 'rv') }]],
    ['same slice twice', listReplies(b, { slices: [slice('a', [], { uid: 'u1' }), slice('b', [], { uid: 'u1' })] })],
    ['slice without markers', listReplies(b, { slices: [slice('a', [], { labels: { 'kubernetes.io/service-name': 'alpha' } })] })],
    ['slice owned by another service', listReplies(b, { slices: [slice('a', [], { ownerUid: 'svc-uid-2' })] })],
    ['slice of another family', listReplies(b, { slices: [slice('a', [], { addressType: 'IPv6' })] })],
    ['slice without a family', listReplies(b, { slices: [slice('a', [], { addressType: null })] })],
  ];
  for (const [name, replies] of bad) {
    await assert.rejects(
      directoryWith(FixtureExecutor.script(replies)).snapshot(referenceTarget()),
      (e: { outcome?: string }) => e.outcome === 'invalid',
      name,
    );
  }
  const small = testBinding({ bounds: { ...b.bounds, listResponseBytes: 64, endpointSliceCount: 1, endpointCount: 2 } });
  const tight = (replies: FixtureReply[]) =>
    new KubernetesDirectory({ bindings: [small], executor: FixtureExecutor.script(replies) }).snapshot(referenceTarget());
  await rejectsOutcome(tight(listReplies(small)), 'invalid');
  const roomy = testBinding({ bounds: { ...b.bounds, endpointSliceCount: 1, endpointCount: 2 } });
  const bounded = (replies: FixtureReply[]) =>
    new KubernetesDirectory({ bindings: [roomy], executor: FixtureExecutor.script(replies) }).snapshot(referenceTarget());
  await rejectsOutcome(bounded(listReplies(roomy, { slices: [slice('a', [], { uid: 'u1' }), slice('b', [], { uid: 'u2' })] })), 'invalid');
  const three = [1, 2, 3].map((i) => ({ uid: `pod-${i}`, addresses: [`10.0.0.${i}`] }));
  await rejectsOutcome(bounded(listReplies(roomy, { slices: [slice('a', three)] })), 'invalid');
  assert.equal((await bounded(listReplies(roomy, { slices: [slice('a', three.slice(0, 2))] }))).instances.length, 2);
});

test('endpoint normalization refuses bad identity, addresses and ports', async () => {
  const bad: Array<[string, Record<string, unknown>]> = [
    ['empty targetRef uid', slice('a', [{ uid: '', addresses: ['10.0.0.1'] }])],
    ['FQDN address', slice('a', [{ uid: 'p', addresses: ['pod.example'] }])],
    ['non-canonical address', slice('a', [{ uid: 'p', addresses: ['010.0.0.1'] }])],
    ['no addresses', slice('a', [{ uid: 'p', addresses: [] }])],
    [
      'two ports named http',
      slice('a', [{ uid: 'p', addresses: ['10.0.0.1'] }], {
        ports: [
          { name: 'http', port: 1, protocol: 'TCP' },
          { name: 'http', port: 2, protocol: 'TCP' },
        ],
      }),
    ],
    ['no matching port', slice('a', [{ uid: 'p', addresses: ['10.0.0.1'] }], { ports: [{ name: 'grpc', port: 1, protocol: 'TCP' }] })],
    ['port without protocol', slice('a', [{ uid: 'p', addresses: ['10.0.0.1'] }], { ports: [{ name: 'http', port: 1 }] })],
    ['port out of range', slice('a', [{ uid: 'p', addresses: ['10.0.0.1'] }], { port: 70000 })],
    ['condition not a boolean', slice('a', [{ uid: 'p', addresses: ['10.0.0.1'], conditions: { ready: 'yes' as never } }])],
  ];
  const missingRef = slice('a', [{ uid: 'p', addresses: ['10.0.0.1'] }]);
  delete ((missingRef['endpoints'] as Record<string, unknown>[])[0] as Record<string, unknown>)['targetRef'];
  bad.push(['no targetRef', missingRef]);
  for (const [name, object] of bad) {
    await assert.rejects(
      directoryWith(FixtureExecutor.script(listReplies(b, { slices: [object] }))).snapshot(referenceTarget()),
      (e: { outcome?: string }) => e.outcome === 'invalid',
      name,
    );
  }
});

test('absent conditions: ready and serving default to true, terminating to false', async () => {
  const values = [undefined, true, false] as const;
  for (const ready of values) {
    for (const serving of values) {
      for (const terminating of values) {
        const conditions = Object.fromEntries(Object.entries({ ready, serving, terminating }).filter(([, v]) => v !== undefined));
        const replies = listReplies(b, { slices: [slice('a', [{ uid: 'p', addresses: ['10.0.0.1'], conditions }])] });
        const pod = (await directoryWith(FixtureExecutor.script(replies)).snapshot(referenceTarget())).instances[0]!;
        const expected = { ready: ready ?? true, serving: serving ?? true, terminating: terminating ?? false };
        assert.deepEqual({ ready: pod.ready, serving: pod.serving, terminating: pod.terminating }, expected, JSON.stringify(conditions));
      }
    }
  }
  const spot = async (conditions: PodEndpoint['conditions']) =>
    (
      await directoryWith(
        FixtureExecutor.script(listReplies(b, { slices: [slice('a', [{ uid: 'p', addresses: ['10.0.0.1'], conditions }])] })),
      ).snapshot(referenceTarget())
    ).instances[0]!.state;
  assert.equal(await spot({ terminating: true }), 'draining');
  assert.equal(await spot({ terminating: true, serving: false }), 'unavailable');
  assert.equal(await spot({ ready: false }), 'unavailable');
  assert.equal(await spot({ ready: null, serving: null, terminating: null }), 'ready');
});

test('a request keeps its own copy of the headers, case-insensitively', () => {
  const input = { Accept: 'application/json' };
  const request = new KubernetesRequest('https://kube.example/api', input);
  input.Accept = 'text/plain';
  assert.equal(request.header('accept'), 'application/json');
  assert.equal(request.header('ACCEPT'), 'application/json');
  const out = request.headers();
  out['accept'] = 'changed';
  assert.equal(request.headers()['accept'], 'application/json');
  assert.equal(request.header('authorization'), undefined);
  assert.equal(request.method(), 'GET');
});

test('directory construction checks the executor and the bindings', async () => {
  const executor = FixtureExecutor.script([]);
  const dir = new KubernetesDirectory({ bindings: [b], executor });
  assert.deepEqual(dir.capabilities().values(), ['observe', 'snapshot']);
  throwsOutcome(() => new KubernetesDirectory({ bindings: [b], executor: null as never }), 'invalid');
  throwsOutcome(() => new KubernetesDirectory({ bindings: [b], executor: {} as never }), 'invalid');
  throwsOutcome(() => new KubernetesDirectory({ bindings: [b, b], executor }), 'invalid');
  throwsOutcome(() => new KubernetesDirectory({ bindings: [{ ...b, namespace: 'Bad' }], executor }), 'invalid');
  for (const guarantee of Object.keys(ALL_GUARANTEES).filter((k) => k !== 'version')) {
    throwsOutcome(
      () => new KubernetesDirectory({ bindings: [b], executor: FixtureExecutor.script([], { ...ALL_GUARANTEES, [guarantee]: false }) }),
      'invalid',
    );
  }
  throwsOutcome(
    () => new KubernetesDirectory({ bindings: [b], executor: FixtureExecutor.script([], { ...ALL_GUARANTEES, version: 'v2' as 'v1' }) }),
    'invalid',
  );
  const none = new KubernetesDirectory({ bindings: [], executor });
  await rejectsOutcome(none.snapshot(referenceTarget()), 'missing');
  assert.equal(executor.requests.length, 0, 'no request for an unbound target');
});

test('failures are classified alike for lists and watch-opens; bad calls send nothing', async () => {
  const dir = (replies: FixtureReply[]) => {
    const executor = FixtureExecutor.script(replies);
    return { executor, directory: directoryWith(executor) };
  };
  for (const [reply, outcome] of [
    [{ transportError: true }, 'unavailable'],
    [{ status: 401 }, 'unauthorized'],
    [{ status: 429 }, 'unavailable'],
    [{ status: 404 }, 'invalid'],
    [{ status: 200, body: null }, 'invalid'],
  ] as Array<[FixtureReply, string]>) {
    const watchOpen = dir([...listReplies(b), reply]);
    await rejectsOutcome(watchOpen.directory.observe(referenceTarget()), outcome as never);
    assert.equal(watchOpen.executor.requests.length, 3);
  }
  const controller = new AbortController();
  controller.abort(new Error('caller deadline'));
  const canceled = dir([]);
  const err = await rejectsOutcome(canceled.directory.snapshot(referenceTarget(), { signal: controller.signal }), 'canceled');
  assert.equal((err.cause as Error).message, 'caller deadline');
  assert.equal(canceled.executor.requests.length, 0);

  const midway = new AbortController();
  const hanging = new FixtureExecutor(async (_request, index) => {
    if (index === 0) midway.abort();
    throw new Error('socket closed');
  });
  await rejectsOutcome(
    new KubernetesDirectory({ bindings: [b], executor: hanging }).snapshot(referenceTarget(), { signal: midway.signal }),
    'canceled',
  );

  const badRv = dir(listReplies(b, { sliceRv: 'has space' }));
  await rejectsOutcome(badRv.directory.observe(referenceTarget()), 'invalid');
  assert.equal(badRv.executor.requests.length, 2, 'no watch is opened from a malformed resourceVersion');
  await rejectsOutcome(dir([]).directory.snapshot(referenceTarget(), 'nope' as never), 'invalid');
  await rejectsOutcome(dir([]).directory.observe(referenceTarget(), { signal: 1 as never }), 'invalid');
  await rejectsOutcome(dir([]).directory.snapshot({ ...referenceTarget(), manifestDigest: 'x' }), 'invalid');
});
