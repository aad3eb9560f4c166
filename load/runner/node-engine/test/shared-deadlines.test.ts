// The deadlines iterations race: one timer per distinct deadline interrupts
// every call racing it, expireAll() interrupts every call at once without
// waiting for the timers, and what settles first wins.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SharedDeadlines } from '../shared-deadlines.ts';

const never = new Promise<never>(() => {});

test('every call racing a deadline is interrupted when the clock passes it; an answer before then wins', async (t) => {
  const deadlines = new SharedDeadlines(() => Date.now());
  // Its timers do not keep a process alive (the iterations they race do): this one does, here.
  const alive = setInterval(() => {}, 1_000);
  t.after(() => {
    clearInterval(alive);
    deadlines.clear();
  });
  const at = Date.now() + 50;
  const answered = deadlines.race(Promise.resolve('answer'), at);
  const [a, b] = await Promise.all([deadlines.race(never, at), deadlines.race(never, at)]);
  assert.deepEqual([a, b, await answered], ['interrupted', 'interrupted', 'answer']);
});

test('expireAll() interrupts every call racing any deadline now, without waiting for the timers', async (t) => {
  const deadlines = new SharedDeadlines(() => Date.now());
  t.after(() => deadlines.clear());
  const far = Date.now() + 3_600_000;
  const racing = [deadlines.race(never, far), deadlines.race(never, far), deadlines.race(never, far + 1)];
  deadlines.expireAll();
  assert.deepEqual(await Promise.all(racing), ['interrupted', 'interrupted', 'interrupted']);
});
