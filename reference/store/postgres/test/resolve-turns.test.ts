// The store's turns for the resolves of one tenant and capability
// (resolve-turns.ts): free until a new route's replica stood alone, then one
// at a time in arrival order, opened again by a route that found more
// candidates, and bounded like the wait for a connection ([failure-overload]).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResolveTurns } from '../resolve-turns.ts';
import { turnKey } from '../route-selection.ts';
import { overload } from './overload-answer.ts';

/** A body that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  return {
    body: async () => {
      log.push(name);
      started();
      await done;
      return name;
    },
    running,
    release,
  };
}

const QUEUE = { size: 2_000, waitMs: 30_000 };

describe('resolve turns', () => {
  it('run side by side while no route stood alone', async () => {
    const turns = new ResolveTurns(QUEUE);
    const log: string[] = [];
    const gates = ['a', 'b', 'c'].map((n) => gate(log, n));
    const taken = gates.map((g) => turns.take('k', g.body));
    await Promise.all(gates.map((g) => g.running));
    assert.deepEqual(log, ['a', 'b', 'c']);
    for (const g of gates) g.release();
    assert.deepEqual(await Promise.all(taken), ['a', 'b', 'c']);
  });

  it('after a lone replica, one at a time in arrival order; other keys are not held', async () => {
    const turns = new ResolveTurns(QUEUE);
    turns.learn('k', true);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(log, n));
    const taken = [turns.take('k', a!.body), turns.take('k', b!.body), turns.take('k', c!.body)];
    const other = gate(log, 'other');
    const otherTaken = turns.take('other key', other.body);
    await Promise.all([a!.running, other.running]);
    assert.deepEqual(log, ['a', 'other'], 'b and c wait for their turn; the other key does not');
    a!.release();
    await b!.running;
    assert.deepEqual(log, ['a', 'other', 'b']);
    b!.release();
    await c!.running;
    c!.release();
    other.release();
    assert.deepEqual(await Promise.all([...taken, otherTaken]), ['a', 'b', 'c', 'other']);
  });

  it('a route that found more candidates lets every waiting resolve go', async () => {
    const turns = new ResolveTurns(QUEUE);
    turns.learn('k', true);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(log, n));
    const taken = [turns.take('k', a!.body), turns.take('k', b!.body), turns.take('k', c!.body)];
    await a!.running;
    turns.learn('k', false);
    a!.release();
    await Promise.all([b!.running, c!.running]);
    b!.release();
    c!.release();
    assert.deepEqual(await Promise.all(taken), ['a', 'b', 'c']);
  });

  it('a full line and an expired wait are the overload answer, and take nothing', async () => {
    const turns = new ResolveTurns({ size: 1, waitMs: 50 });
    turns.learn('k', true);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(log, n));
    const first = turns.take('k', a!.body);
    const queued = turns.take('k', b!.body);
    await assert.rejects(turns.take('k', c!.body), overload(/already wait for their turn/));
    await assert.rejects(queued, overload(/no turn came in time/));
    a!.release();
    assert.equal(await first, 'a');
    assert.deepEqual(log, ['a'], 'neither refused resolve ran');
    const d = gate(log, 'd');
    const after = turns.take('k', d.body);
    await d.running;
    d.release();
    assert.equal(await after, 'd', 'the line serves again');
  });

  it('a queue of size 0 takes no turns: nothing waits where it would be refused', async () => {
    const turns = new ResolveTurns({ size: 0, waitMs: 50 });
    turns.learn('k', true);
    const log: string[] = [];
    const [a, b] = ['a', 'b'].map((n) => gate(log, n));
    const taken = [turns.take('k', a!.body), turns.take('k', b!.body)];
    await Promise.all([a!.running, b!.running]);
    a!.release();
    b!.release();
    assert.deepEqual(await Promise.all(taken), ['a', 'b']);
  });

  it('a line is one tenant, capability and candidate filter; a preference alone does not split it', () => {
    const req = { action_id: 'act-1', capability_id: 'cap:x' };
    const key = turnKey('tenant-a', req);
    assert.equal(turnKey('tenant-a', { ...req, action_id: 'act-2' }), key);
    assert.equal(turnKey('tenant-a', { ...req, topology: { region: 'eu', zone: 'eu-1' } }), key, 'where it would rather go');
    assert.notEqual(turnKey('tenant-b', req), key);
    assert.notEqual(turnKey('tenant-a', { ...req, capability_id: 'cap:y' }), key);
    assert.notEqual(turnKey('tenant-a', { ...req, topology: { region: 'eu', allow_cross_region: false } }), key, 'residency');
    assert.notEqual(turnKey('tenant-a', { ...req, topology: { capacity_class: 'large' } }), key, 'capacity class');
  });
});
