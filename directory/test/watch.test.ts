import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChange } from '../change.ts';
import { directoryError } from '../outcome.ts';
import { rejectsOutcome } from './kit/assert-outcome.ts';
import { instance, instancesChanged, snapshot } from './kit/fixtures.ts';
import { createInstanceWatch } from '../watch.ts';

const change = (order: number) => instancesChanged(snapshot('populated', [instance(`pod-${order}`)], order), [instance(`pod-${order}`)]);
const deleted = (order: number) =>
  createChange({
    kind: 'target_deleted',
    upserts: [],
    deletedInstanceIds: [],
    previousState: null,
    snapshot: snapshot('missing', [], order),
  });

test('capacity must be given and positive', () => {
  for (const bad of [0, -1, 1.5, Number.NaN, undefined]) assert.throws(() => createInstanceWatch(bad as number));
});

test('a canceled next consumes no queued change and the watch stays usable', async () => {
  const { watch, publisher } = createInstanceWatch(4);
  assert.equal(publisher.publish(change(1)), null);
  const controller = new AbortController();
  controller.abort(new Error('caller gave up'));
  const err = await rejectsOutcome(watch.next({ signal: controller.signal }), 'canceled');
  assert.equal((err.cause as Error).message, 'caller gave up');
  assert.equal((await watch.next()).revision.localOrder, 1);
});

test('a second concurrent next is invalid and leaves the first waiting', async () => {
  const { watch, publisher } = createInstanceWatch(4);
  const controller = new AbortController();
  const first = watch.next({ signal: controller.signal });
  await rejectsOutcome(watch.next(), 'invalid');
  controller.abort();
  await rejectsOutcome(first, 'canceled');
  publisher.publish(change(1));
  assert.equal((await watch.next()).revision.localOrder, 1, 'usable again after the cancel');
});

test('a blocked next receives the next published change', async () => {
  const { watch, publisher } = createInstanceWatch(1);
  const pending = watch.next();
  publisher.publish(change(1));
  assert.equal((await pending).upserts[0]!.id, 'pod-1');
});

test('the first terminal latches, drops queued changes and survives close', async () => {
  const { watch, publisher } = createInstanceWatch(4);
  publisher.publish(change(1));
  publisher.terminate(directoryError('stale', 'resource_version_expired'));
  publisher.terminate(directoryError('watch_interrupted', 'stream_eof'));
  watch.close();
  for (let i = 0; i < 3; i++) await rejectsOutcome(watch.next(), 'stale', 'resource_version_expired');
  assert.notEqual(publisher.publish(change(2)), null, 'nothing is accepted after a terminal');
});

test('a terminal wrapped in secret-bearing text comes out as the plain outcome', async () => {
  const { watch, publisher } = createInstanceWatch(1);
  publisher.terminate(new Error('Authorization: Bearer secret-token', { cause: directoryError('stale', 'resource_version_expired') }));
  const err = await rejectsOutcome(watch.next(), 'stale');
  assert.ok(!err.message.includes('secret'));
  assert.equal(err.cause, undefined);
});

test('an untyped terminal becomes invalid/terminal_outcome_required', async () => {
  const { watch, publisher } = createInstanceWatch(1);
  publisher.terminate(new Error('raw provider failure'));
  await rejectsOutcome(watch.next(), 'invalid', 'terminal_outcome_required');
});

test('close unblocks a waiting next with closed and is idempotent', async () => {
  let finished = 0;
  const { watch, publisher } = createInstanceWatch(1, { onFinished: () => finished++ });
  const pending = watch.next();
  watch.close();
  watch.close();
  await rejectsOutcome(pending, 'closed');
  await rejectsOutcome(watch.next(), 'closed');
  assert.equal(finished, 1, 'the provider is told once');
  assert.ok(publisher.finished);
});

test('overflow drops the queued change and delivers delivery_overflow instead', async () => {
  const { watch, publisher } = createInstanceWatch(1);
  assert.equal(publisher.publish(change(1)), null);
  const refused = publisher.publish(change(2));
  assert.equal(refused?.outcome, 'watch_interrupted');
  assert.equal(refused?.reason, 'delivery_overflow');
  await rejectsOutcome(watch.next(), 'watch_interrupted', 'delivery_overflow');
});

test('an invalid change is refused without latching', async () => {
  const { watch, publisher } = createInstanceWatch(2);
  const bogus = { ...change(1), kind: 'exploded' } as never;
  assert.equal(publisher.publish(bogus)?.outcome, 'invalid');
  publisher.publish(change(1));
  assert.equal((await watch.next()).kind, 'instances_changed');
});

test('target_deleted is delivered once, then closed; a later terminate is ignored', async () => {
  let finished = 0;
  const { watch, publisher } = createInstanceWatch(2, { onFinished: () => finished++ });
  publisher.publish(deleted(1));
  assert.equal(finished, 1, 'the provider may release its streams at once');
  publisher.terminate(directoryError('stale', 'resource_version_expired'));
  assert.equal(publisher.publish(change(2))?.outcome, 'closed');
  assert.equal((await watch.next()).kind, 'target_deleted');
  await rejectsOutcome(watch.next(), 'closed');
  await rejectsOutcome(watch.next(), 'closed');
});

test('next refuses options that are not an abort signal', async () => {
  const { watch } = createInstanceWatch(1);
  await rejectsOutcome(watch.next({ signal: {} as AbortSignal }), 'invalid');
  await rejectsOutcome(watch.next(null as never), 'invalid');
});
