import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Capabilities } from '../capabilities.ts';
import { createChange } from '../change.ts';
import { directoryError } from '../outcome.ts';
import { snapshotsEqual } from '../snapshot.ts';
import { rejectsOutcome, throwsOutcome } from './kit/assert-outcome.ts';
import { describeDirectoryConformance } from './kit/conformance.ts';
import { FakeDirectory } from './kit/fake-directory.ts';
import { instance, instancesChanged, referenceTarget, snapshot } from './kit/fixtures.ts';

const target = referenceTarget();
const initial = snapshot('populated', [instance('pod-a')]);
const firstChange = instancesChanged(snapshot('populated', [instance('pod-a', { terminating: true })], 1), [
  instance('pod-a', { terminating: true }),
]);

describeDirectoryConformance(
  'fake',
  async () => {
    const directory = new FakeDirectory(4);
    directory.bind(target, initial);
    return {
      directory,
      emit: async () => directory.emit(target, firstChange),
      terminate: async () => directory.terminate(target, directoryError('stale', 'resource_version_expired')),
      dispose: () => directory.close(),
    };
  },
  {
    target,
    unboundTarget: referenceTarget({ instanceId: 'cinst_unbound' }),
    initial,
    change: firstChange,
    terminal: { outcome: 'stale', reason: 'resource_version_expired' },
  },
);

test('fake refuses an impossible delta and keeps its state', async () => {
  const fake = new FakeDirectory(2);
  fake.bind(target, initial);
  const deletesUnknown = instancesChanged(snapshot('populated', [instance('pod-a')], 1), [], ['pod-never']);
  throwsOutcome(() => fake.emit(target, deletesUnknown), 'invalid');
  assert.ok(snapshotsEqual(await fake.snapshot(target), initial));
});

test('fake requires a state change to start from the current state', () => {
  const fake = new FakeDirectory(2);
  fake.bind(target, snapshot('empty'));
  const claimsMissing = createChange({
    kind: 'state_changed',
    upserts: [],
    deletedInstanceIds: [],
    previousState: 'missing',
    snapshot: snapshot('empty', [], 1),
  });
  throwsOutcome(() => fake.emit(target, claimsMissing), 'invalid');
});

test('fake numbers changes per observation, each with its own delta', async () => {
  const fake = new FakeDirectory(4);
  fake.bind(target, initial);
  const first = await fake.observe(target);
  fake.emit(target, firstChange);
  const second = await fake.observe(target);
  assert.equal(second.initial.revision.localOrder, 0, 'a new observation starts at 0');
  assert.equal(second.initial.instances[0]!.state, 'draining');
  const gone = instancesChanged(
    snapshot('populated', [instance('pod-b', { endpoints: [{ ...instance('pod-b').endpoints[0]!, address: '10.0.0.2' }] })], 1),
    [instance('pod-b', { endpoints: [{ ...instance('pod-b').endpoints[0]!, address: '10.0.0.2' }] })],
    ['pod-a'],
  );
  fake.emit(target, gone);
  assert.deepEqual([(await first.watch.next()).revision.localOrder, (await first.watch.next()).revision.localOrder], [1, 2]);
  const only = await second.watch.next();
  assert.equal(only.revision.localOrder, 1);
  assert.deepEqual(only.deletedInstanceIds, ['pod-a']);
});

test('fake delivers two emits in order', async () => {
  const fake = new FakeDirectory(4);
  fake.bind(target, initial);
  const { watch } = await fake.observe(target);
  const pending = watch.next();
  fake.emit(target, firstChange);
  const back = instancesChanged(snapshot('populated', [instance('pod-a')], 1), [instance('pod-a')]);
  fake.emit(target, back);
  const a = await pending;
  const b = await watch.next();
  assert.deepEqual([a.revision.localOrder, b.revision.localOrder], [1, 2]);
  assert.deepEqual([a.upserts[0]!.state, b.upserts[0]!.state], ['draining', 'ready']);
});

test('fake tells a missing binding from a missing snapshot', async () => {
  const fake = new FakeDirectory(1);
  fake.bind(target, snapshot('missing'));
  assert.equal((await fake.snapshot(target)).state, 'missing');
  assert.equal((await fake.observe(target)).initial.state, 'missing');
  await rejectsOutcome(fake.snapshot(referenceTarget({ instanceId: 'cinst_other' })), 'missing');
});

test('fake close unblocks every watch', async () => {
  const fake = new FakeDirectory(1);
  fake.bind(target, initial);
  const a = await fake.observe(target);
  const b = await fake.observe(target);
  const pending = [a.watch.next(), b.watch.next()];
  await fake.close();
  for (const p of pending) await rejectsOutcome(p, 'closed');
});

test('fake construction needs a capacity and observe; rebinding waits for watches to close', async () => {
  throwsOutcome(() => new FakeDirectory(0), 'invalid');
  throwsOutcome(() => new FakeDirectory(1, Capabilities.of(['snapshot'])), 'invalid');
  const fake = new FakeDirectory(1);
  fake.bind(target, initial);
  const { watch } = await fake.observe(target);
  throwsOutcome(() => fake.bind(target, snapshot('empty')), 'invalid');
  watch.close();
  await rejectsOutcome(watch.next(), 'closed');
  fake.bind(target, snapshot('empty'));
});

test('fake operations fail with typed outcomes', async () => {
  const fake = new FakeDirectory(1);
  fake.bind(target, initial);
  await rejectsOutcome(fake.snapshot({ ...target, audience: 'nope' }), 'invalid');
  await rejectsOutcome(fake.observe(target, { signal: 'x' as never }), 'invalid');
  const controller = new AbortController();
  controller.abort();
  await rejectsOutcome(fake.observe(target, { signal: controller.signal }), 'canceled');
  throwsOutcome(() => fake.terminate(target, new Error('untyped') as never), 'invalid', 'terminal_outcome_required');
  await fake.close();
  await rejectsOutcome(fake.snapshot(target), 'closed');
  await rejectsOutcome(fake.observe(target), 'closed');
  throwsOutcome(() => fake.bind(target, initial), 'closed');
});
