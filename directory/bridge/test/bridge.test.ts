import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import type { ConnectorReplica } from '../../../contract/records.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import { toTimestamp } from '../../../reference/domain/time.ts';
import { diffSnapshots } from '../../change.ts';
import type { Instance } from '../../instance.ts';
import { directoryError } from '../../outcome.ts';
import type { InstanceSnapshot, SnapshotState } from '../../snapshot.ts';
import { FakeDirectory } from '../../test/kit/fake-directory.ts';
import { instance, snapshot, tcpEndpoint } from '../../test/kit/fixtures.ts';
import { DirectoryBridge, replicaStatusOf, type BridgeEvent } from '../bridge.ts';
import type { LifecyclePort } from '../lifecycle-port.ts';
import { bridgeWorld, LEASE_TTL_MS, ManualTimers, until, type BridgeWorld } from './support.ts';

const pod = (id: string, address: string, over: Partial<Parameters<typeof instance>[1]> = {}) =>
  instance(id, { endpoints: [tcpEndpoint(address, 8080)], ...over });
const draining = { ready: false, serving: true, terminating: true };

/** Harnesses not stopped yet: a test that failed before its stop() leaves no bridge running. */
const running = new Set<Harness>();
afterEach(async () => {
  for (const h of running) await h.stop();
});

class Harness {
  readonly fake = new FakeDirectory(16);
  readonly timers = new ManualTimers();
  readonly events: BridgeEvent[] = [];
  current: InstanceSnapshot;
  bridge: DirectoryBridge;
  exit: Promise<string>;

  constructor(
    readonly w: BridgeWorld,
    pods: Instance[],
    lifecycle: LifecyclePort = w.store,
    state: SnapshotState = pods.length > 0 ? 'populated' : 'empty',
  ) {
    this.current = snapshot(state, pods, 0, ['s', 'e'], w.target);
    this.fake.bind(w.target, this.current);
    this.bridge = new DirectoryBridge({
      directory: this.fake,
      target: w.target,
      template: w.template,
      lifecycle,
      now: w.clock.now,
      timers: this.timers,
      backoff: { initialMs: 100, maxMs: 1_000 },
      onEvent: (e) => this.events.push(e),
    });
    this.exit = this.bridge.run();
    running.add(this);
  }

  replicaId(podId: string): string {
    return `crepl_${this.w.fleet.instance.id.replace('cinst_', '')}_${podId}`;
  }

  replica(podId: string): Promise<ConnectorReplica | null> {
    return this.w.store.getReplica(this.replicaId(podId));
  }

  async status(podId: string): Promise<string | undefined> {
    return (await this.replica(podId))?.status;
  }

  /** Moves the cluster to `pods` (or another state) and waits until the bridge wrote it. */
  async moveTo(pods: Instance[], state: SnapshotState = pods.length > 0 ? 'populated' : 'empty'): Promise<void> {
    const next = snapshot(state, pods, 1, ['s', 'e'], this.w.target);
    const change = diffSnapshots(this.current, next);
    if (change) this.fake.emit(this.w.target, change);
    this.current = snapshot(state, pods, 0, ['s', 'e'], this.w.target);
    await this.quiet();
  }

  /** Waits until the bridge has taken every change and finished its writes. */
  async quiet(): Promise<void> {
    await new Promise((r) => setTimeout(r, 5));
    await this.bridge.settled();
  }

  async stop(): Promise<void> {
    running.delete(this);
    await this.bridge.stop();
  }
}

test('directory lifecycle maps to replica status', () => {
  assert.equal(replicaStatusOf('ready'), 'ready');
  assert.equal(replicaStatusOf('draining'), 'draining');
  assert.equal(replicaStatusOf('unavailable'), 'offline');
});

test('pods are provisioned from the template with their health and a lease', async () => {
  const w = await bridgeWorld('br1');
  const h = new Harness(w, [pod('pod-a', '10.0.0.1', { zone: 'zone-a' }), pod('pod-b', '10.0.0.2', { ready: false })]);
  await until('both replicas', async () => (await h.replica('pod-b')) !== null && (await h.replica('pod-a')) !== null);
  await h.quiet();
  const a = (await h.replica('pod-a'))!;
  assert.equal(a.status, 'ready');
  assert.equal(a.health_revision, 1);
  assert.equal(a.instance_id, w.fleet.instance.id);
  assert.equal(a.version_id, w.fleet.version.id);
  assert.equal(a.endpoint, 'http://10.0.0.1:8080/mcp');
  assert.equal(a.peer_principal_id, 'connector/br1/pod-a');
  assert.equal(a.peer_did, 'did:web:connectors.example:br1:pod-a');
  assert.equal(a.lease_expires_at, toTimestamp(w.clock.now() + LEASE_TTL_MS));
  assert.equal(a.capacity, 10);
  const b = (await h.replica('pod-b'))!;
  assert.equal(b.status, 'offline', 'a pod that is not ready is known but offline');
  assert.ok(Date.parse(b.lease_expires_at) <= w.clock.now());
  await h.stop();
  assert.equal(await h.exit, 'stopped');
});

test('replica health follows pods: draining, back to ready, unavailable, deleted', async () => {
  const w = await bridgeWorld('br2');
  const h = new Harness(w, [pod('pod-a', '10.0.0.1'), pod('pod-b', '10.0.0.2')]);
  await h.quiet();
  await h.moveTo([pod('pod-a', '10.0.0.1', draining), pod('pod-b', '10.0.0.2')]);
  assert.equal(await h.status('pod-a'), 'draining');
  assert.equal((await h.replica('pod-a'))!.health_revision, 2);
  assert.equal((await h.replica('pod-b'))!.health_revision, 1, 'an unchanged pod is not rewritten');
  await h.moveTo([pod('pod-a', '10.0.0.1', { terminating: true, serving: false }), pod('pod-b', '10.0.0.2')]);
  assert.equal(await h.status('pod-a'), 'offline');
  await h.moveTo([pod('pod-b', '10.0.0.2', { ready: false })]);
  assert.equal(await h.status('pod-b'), 'offline');
  await h.moveTo([pod('pod-b', '10.0.0.2')]);
  assert.equal(await h.status('pod-b'), 'ready');
  await h.moveTo([]);
  assert.equal(await h.status('pod-b'), 'offline', 'a deleted pod is taken offline');
  const revisions = h.events
    .filter((e): e is Extract<BridgeEvent, { kind: 'reported' }> => e.kind === 'reported' && e.replicaId === h.replicaId('pod-b'))
    .map((e) => e.healthRevision);
  assert.deepEqual(
    revisions,
    [...revisions].sort((x, y) => x - y),
    'strictly increasing',
  );
  assert.equal(new Set(revisions).size, revisions.length);
  await h.stop();
});

test('leases are renewed only while the observation is live, so they lapse when it is lost', async () => {
  const w = await bridgeWorld('br3');
  const h = new Harness(w, [pod('pod-a', '10.0.0.1'), pod('pod-b', '10.0.0.2', draining)]);
  await h.quiet();
  w.clock.advance(LEASE_TTL_MS / 3);
  h.timers.tick();
  await h.quiet();
  const renewed = (await h.replica('pod-a'))!;
  assert.equal(renewed.health_revision, 2);
  assert.equal(renewed.lease_expires_at, toTimestamp(w.clock.now() + LEASE_TTL_MS));
  assert.equal((await h.replica('pod-b'))!.status, 'draining', 'draining pods keep their lease while observed');
  assert.equal((await h.replica('pod-b'))!.health_revision, 2);

  // The watch is lost and the next observation fails: no more renewals.
  h.fake.terminate(w.target, directoryError('watch_interrupted', 'watch_status_error'));
  await until('the bridge to back off', () => h.timers.sleeping > 0);
  assert.equal(h.bridge.live, false);
  for (let i = 0; i < 4; i++) {
    w.clock.advance(LEASE_TTL_MS / 3);
    h.timers.tick();
  }
  await h.quiet();
  assert.equal((await h.replica('pod-a'))!.health_revision, 2, 'no renewal without a live observation');
  // The lease has lapsed: the replica takes no route, and lease maintenance takes it offline.
  await assert.rejects(
    w.world.resolve('tenant-a', 'act-1', w.fleet.capabilityIds[0]!),
    (e) => RegistryError.is(e) && e.code === 'REPLICA_UNAVAILABLE',
  );
  assert.equal((await w.store.expireLeases(10)).expired, 2);
  assert.equal(await h.status('pod-a'), 'offline');

  // Observing again confirms the pods that are still there with a fresh lease.
  h.timers.wake();
  await until('a live observation', () => h.bridge.live);
  await h.quiet();
  const back = (await h.replica('pod-a'))!;
  assert.equal(back.status, 'ready');
  assert.equal(back.lease_expires_at, toTimestamp(w.clock.now() + LEASE_TTL_MS));
  assert.equal((await w.world.resolve('tenant-a', 'act-1', w.fleet.capabilityIds[0]!)).assignment.replica_id, h.replicaId('pod-a'));
  await h.stop();
});

test('a new observation takes replicas of pods that vanished meanwhile offline', async () => {
  const w = await bridgeWorld('br4');
  const h = new Harness(w, [pod('pod-a', '10.0.0.1'), pod('pod-b', '10.0.0.2')]);
  await h.quiet();
  h.fake.terminate(w.target, directoryError('unavailable', 'provider_unavailable'));
  await until('a backoff sleep', () => h.timers.sleeping > 0);
  // While nobody watches, pod-b disappears.
  h.fake.bind(w.target, snapshot('populated', [pod('pod-a', '10.0.0.1')], 0, ['s2', 'e2'], w.target));
  h.current = snapshot('populated', [pod('pod-a', '10.0.0.1')], 0, ['s2', 'e2'], w.target);
  h.timers.wake();
  await until('a live observation', () => h.bridge.live);
  await h.quiet();
  assert.equal(await h.status('pod-b'), 'offline');
  assert.equal(await h.status('pod-a'), 'ready');
  await h.stop();
});

test('stale and routine ends relist at once; repeated failures back off', async () => {
  const w = await bridgeWorld('br5');
  const h = new Harness(w, [pod('pod-a', '10.0.0.1')]);
  await h.quiet();
  h.fake.terminate(w.target, directoryError('stale', 'resource_version_expired'));
  await until('the relist', () => h.events.filter((e) => e.kind === 'observed').length === 2);
  const retries = () =>
    h.events.filter((e): e is Extract<BridgeEvent, { kind: 'retrying' }> => e.kind === 'retrying').map((e) => e.delayMs);
  assert.deepEqual(retries(), [0]);
  h.fake.terminate(w.target, directoryError('watch_interrupted', 'stream_eof'));
  await until('a backoff', () => h.timers.sleeping > 0);
  assert.deepEqual(retries(), [0, 200], 'a second quick end in a row is backed off');
  h.timers.wake();
  await until('observed again', () => h.events.filter((e) => e.kind === 'observed').length === 3);
  await h.stop();
  assert.ok(h.events.some((e) => e.kind === 'observation_ended' && e.reason === 'stream_eof'));
});

test('target deletion takes every replica offline and ends the bridge', async () => {
  const w = await bridgeWorld('br6');
  const h = new Harness(w, [pod('pod-a', '10.0.0.1'), pod('pod-b', '10.0.0.2', draining)]);
  await h.quiet();
  const { createChange } = await import('../../change.ts');
  h.fake.emit(
    w.target,
    createChange({
      kind: 'target_deleted',
      upserts: [],
      deletedInstanceIds: [],
      previousState: null,
      snapshot: snapshot('missing', [], 1, ['s', 'e'], w.target),
    }),
  );
  assert.equal(await h.exit, 'target_deleted');
  assert.equal(await h.status('pod-a'), 'offline');
  assert.equal(await h.status('pod-b'), 'offline');
  assert.equal(h.timers.timersActive, 0, 'renewals stopped');
});

test('a missing or empty target has no routable replicas', async () => {
  const w = await bridgeWorld('br7');
  const h = new Harness(w, [pod('pod-a', '10.0.0.1')]);
  await h.quiet();
  await h.moveTo([], 'empty');
  assert.equal(await h.status('pod-a'), 'offline');
  await h.stop();
  const w2 = await bridgeWorld('br7b');
  const missing = new Harness(w2, [], w2.store, 'missing');
  await until('observed', () => missing.bridge.live);
  await missing.quiet();
  assert.equal(await missing.replica('pod-a'), null, 'nothing is provisioned for a missing Service');
  await missing.stop();
});

test('health revisions continue from the registry after a restart or a foreign write', async () => {
  const w = await bridgeWorld('br8');
  // A replica from an earlier run, at revision 7.
  const first = new Harness(w, [pod('pod-a', '10.0.0.1')]);
  await first.quiet();
  await first.stop();
  for (let i = 0; i < 6; i++) await w.world.health(first.replicaId('pod-a'), {});
  assert.equal((await first.replica('pod-a'))!.health_revision, 7);

  const second = new Harness(w, [pod('pod-a', '10.0.0.1')]);
  await second.quiet();
  assert.equal((await second.replica('pod-a'))!.health_revision, 8, 'read back, then one more');
  // Someone else reports meanwhile: the bridge's next write conflicts, re-reads and wins.
  await w.world.health(second.replicaId('pod-a'), {});
  await w.world.health(second.replicaId('pod-a'), {});
  await second.moveTo([pod('pod-a', '10.0.0.1', draining)]);
  const after = (await second.replica('pod-a'))!;
  assert.equal(after.status, 'draining');
  assert.equal(after.health_revision, 11);
  assert.ok(second.events.every((e) => e.kind !== 'report_failed'));
  await second.stop();
});

test('a failing registry write is reported and retried by the next renewal', async () => {
  const w = await bridgeWorld('br9');
  const inner = w.store;
  let failNext = 0;
  const flaky: LifecyclePort = {
    provisionReplica: (record) => inner.provisionReplica(record),
    getReplica: (id) => inner.getReplica(id),
    reportHealth: async (id, report) => {
      if (failNext > 0) {
        failNext--;
        throw new RegistryError('STORAGE_UNAVAILABLE', 'storage down');
      }
      return inner.reportHealth(id, report);
    },
  };
  const h = new Harness(w, [pod('pod-a', '10.0.0.1')], flaky);
  await h.quiet();
  failNext = 1;
  await h.moveTo([pod('pod-a', '10.0.0.1', draining)]);
  assert.ok(h.events.some((e) => e.kind === 'report_failed'));
  assert.equal(await h.status('pod-a'), 'ready', 'the failed write did not land');
  h.timers.tick();
  await h.quiet();
  assert.equal(await h.status('pod-a'), 'draining', 'the renewal wrote the current state');
  await h.stop();
});

test('a template that cannot produce valid replicas is refused up front', async () => {
  const w = await bridgeWorld('br10');
  const make = (over: object) =>
    new DirectoryBridge({
      directory: new FakeDirectory(1),
      target: w.target,
      template: { ...w.template, ...over },
      lifecycle: w.store,
    });
  assert.throws(() => make({ replicaIdPattern: 'crepl_fixed' }), /\{uid\}/);
  assert.throws(() => make({ replicaIdPattern: 'replica-{uid}' }));
  assert.throws(() => make({ endpointPattern: 'mailto:{uid}' }));
  assert.throws(() => make({ peerDidPattern: 'not-a-did' }));
  assert.throws(() => make({ leaseTtlMs: 0 }));
  assert.throws(() => make({ capacity: 0 }));
  assert.throws(() => make({ topology: { region: 'r', zone: '{nope}', capacityClass: 's' } }));
});
