// End to end: a fake Kubernetes API server over loopback HTTP, the Kubernetes
// directory with the undici executor, the bridge, and a registry reached in
// process or over its HTTP binding. Replica states follow the pods, and
// routing follows the replica states.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { generateSigningKeys, signingKeyFromJwk } from '../../../contract/tokens.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import { createRegistryServer } from '../../../reference/http/server.ts';
import { KubernetesDirectory } from '../../kubernetes/directory.ts';
import { FakeKubeApiServer } from '../../kubernetes/test/support/fake-apiserver.ts';
import { serviceObject, sliceObject, testBinding, type PodEndpoint } from '../../kubernetes/test/support/objects.ts';
import { UndiciRequestExecutor } from '../../kubernetes/undici-executor.ts';
import { DirectoryBridge, type BridgeEvent } from '../bridge.ts';
import { HttpLifecyclePort } from '../http-lifecycle.ts';
import type { LifecyclePort } from '../lifecycle-port.ts';
import { lifecycleTokenSource } from '../registry-token.ts';
import { bridgeWorld, LEASE_TTL_MS, ManualTimers, until, type BridgeWorld } from './support.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const ready = (uid: string, address: string): PodEndpoint => ({
  uid,
  addresses: [address],
  conditions: { ready: true, serving: true, terminating: false },
});
const terminating = (uid: string, address: string): PodEndpoint => ({
  uid,
  addresses: [address],
  conditions: { ready: false, serving: true, terminating: true },
});

interface Scenario {
  w: BridgeWorld;
  kube: FakeKubeApiServer;
  timers: ManualTimers;
  bridge: DirectoryBridge;
  events: BridgeEvent[];
}

async function startScenario(name: string, lifecycleFor: (w: BridgeWorld) => Promise<LifecyclePort>): Promise<Scenario> {
  const w = await bridgeWorld(name);
  const kube = await FakeKubeApiServer.start();
  const binding = testBinding({ apiOrigin: kube.origin, target: w.target });
  const executor = new UndiciRequestExecutor({ origin: kube.origin });
  cleanups.push(
    () => kube.close(),
    () => executor.close(),
  );
  kube.putService(serviceObject(binding));
  kube.putSlice(sliceObject(binding, { name: 'alpha-1', endpoints: [ready('pod-a', '10.0.0.1'), ready('pod-b', '10.0.0.2')] }));
  const timers = new ManualTimers();
  const events: BridgeEvent[] = [];
  const bridge = new DirectoryBridge({
    directory: new KubernetesDirectory({ bindings: [binding], executor }),
    target: w.target,
    template: w.template,
    lifecycle: await lifecycleFor(w),
    now: w.clock.now,
    timers,
    backoff: { initialMs: 50, maxMs: 1_000 },
    onEvent: (e) => events.push(e),
  });
  void bridge.run();
  cleanups.push(() => bridge.stop());
  return { w, kube, timers, bridge, events };
}

/** The behaviour both registries must show. */
async function replicasAndRoutingFollowPods({ w, kube, timers, bridge }: Scenario): Promise<void> {
  const binding = testBinding({ apiOrigin: kube.origin, target: w.target });
  const replicaId = (pod: string) => w.template.replicaIdPattern.replace('{uid}', pod);
  const status = async (pod: string) => (await w.store.getReplica(replicaId(pod)))?.status;
  const capability = w.fleet.capabilityIds[0]!;
  const resolve = (action: string) => w.world.resolve('tenant-a', action, capability);

  await until('both pods ready as replicas', async () => (await status('pod-a')) === 'ready' && (await status('pod-b')) === 'ready');

  // A pinned action on one of them, settled so its next resolve reacquires.
  const pinned = await resolve('act-pinned');
  const pinnedReplica = pinned.assignment.replica_id;
  const pinnedPod = pinnedReplica === replicaId('pod-a') ? 'pod-a' : 'pod-b';
  const otherPod = pinnedPod === 'pod-a' ? 'pod-b' : 'pod-a';
  const address = { 'pod-a': '10.0.0.1', 'pod-b': '10.0.0.2' } as const;
  await w.world.settle(pinned);

  // The pinned replica's pod starts terminating but still serves.
  kube.putSlice(
    sliceObject(binding, { name: 'alpha-1', endpoints: [terminating(pinnedPod, address[pinnedPod]), ready(otherPod, address[otherPod])] }),
  );
  await until('the terminating pod to drain', async () => (await status(pinnedPod)) === 'draining');
  for (let i = 0; i < 12; i++) {
    const fresh = await resolve(`act-new-${i}`);
    assert.equal(fresh.assignment.replica_id, replicaId(otherPod), 'a draining replica takes no new route');
    await w.world.settle(fresh);
  }
  const again = await resolve('act-pinned');
  assert.deepEqual(again.assignment, pinned.assignment, 'the pinned route reacquires its draining replica');
  assert.ok(again.reserved);
  await w.world.settle(again);

  // The pod is gone: its replica goes offline and the pinned action cannot run.
  kube.putSlice(sliceObject(binding, { name: 'alpha-1', endpoints: [ready(otherPod, address[otherPod])] }));
  await until('the deleted pod to go offline', async () => (await status(pinnedPod)) === 'offline');
  await assert.rejects(resolve('act-pinned'), (e) => RegistryError.is(e) && e.code === 'REPLICA_UNAVAILABLE');

  // The watch breaks and cannot be reopened: leases are not renewed and lapse.
  kube.failNext(503, (r) => r.query['watch'] !== 'true');
  kube.sendStatus(500);
  await until('the bridge to back off', () => timers.sleeping > 0);
  assert.equal(bridge.live, false);
  const leaseBefore = (await w.store.getReplica(replicaId(otherPod)))!.lease_expires_at;
  w.clock.advance(LEASE_TTL_MS / 2);
  timers.tick();
  await bridge.settled();
  assert.equal((await w.store.getReplica(replicaId(otherPod)))!.lease_expires_at, leaseBefore, 'no renewal while the watch is lost');
  w.clock.advance(LEASE_TTL_MS / 2);
  await assert.rejects(resolve('act-after-loss'), (e) => RegistryError.is(e) && e.code === 'REPLICA_UNAVAILABLE');

  // Observing again confirms the surviving pod, and routing resumes.
  await until('a live observation again', async () => {
    timers.wake();
    return bridge.live;
  });
  await until(
    'the surviving replica to be leased again',
    async () => Date.parse((await w.store.getReplica(replicaId(otherPod)))!.lease_expires_at) > w.clock.now(),
  );
  assert.equal((await resolve('act-after-loss')).assignment.replica_id, replicaId(otherPod));
  timers.tick();
  await bridge.settled();
  assert.equal(
    Date.parse((await w.store.getReplica(replicaId(otherPod)))!.lease_expires_at),
    w.clock.now() + LEASE_TTL_MS,
    'renewals resumed',
  );
}

describe('directory bridge end to end', () => {
  test('with the registry in process (memory store)', async () => {
    const scenario = await startScenario('e2emem', async (w) => w.store);
    await replicasAndRoutingFollowPods(scenario);
    assert.ok(
      scenario.events.every((e) => e.kind !== 'report_failed'),
      JSON.stringify(scenario.events.filter((e) => e.kind === 'report_failed')),
    );
  });

  test('with the registry over its HTTP binding', async () => {
    const { privateJwk, jwks } = await generateSigningKeys();
    const key = await signingKeyFromJwk(privateJwk);
    let requests = 0;
    const scenario = await startScenario('e2ehttp', async (w) => {
      const server = createRegistryServer({ store: w.store, jwks, log: () => {} });
      const url = await server.listen(0, '127.0.0.1');
      server.httpServer.on('request', () => requests++);
      const port = new HttpLifecyclePort({ baseUrl: url, token: lifecycleTokenSource(key) });
      cleanups.push(
        () => server.close(),
        () => port.close(),
      );
      return port;
    });
    await replicasAndRoutingFollowPods(scenario);
    assert.ok(requests > 0, 'the bridge went through the HTTP binding');
    assert.ok(
      scenario.events.every((e) => e.kind !== 'report_failed'),
      JSON.stringify(scenario.events.filter((e) => e.kind === 'report_failed')),
    );
  });
});
