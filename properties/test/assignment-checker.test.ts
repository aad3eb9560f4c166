// The assignment checker flags an action seen on two assignments — in two
// answers, or in an answer and the route read back — and nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteView } from '../../contract/records.ts';
import { changedAssignments } from '../history/assignment-checker.ts';
import type { Op } from '../check/history.ts';

const view = (replica: string, fence = 'f1') =>
  ({ reserved: true, assignment: { action_id: 'a', replica_id: replica, fence_token: fence } }) as unknown as RouteView;
const op = (kind: Op['kind'], at: number, type: Op['type'], v?: RouteView): Op => ({
  client: 1,
  kind,
  tenant: 't',
  action: 'a',
  invoke: at,
  complete: at + 1,
  type,
  ...(v ? { view: v } : {}),
});

describe('the assignment checker', () => {
  it('accepts one assignment seen again and again', () => {
    assert.deepEqual(
      changedAssignments([op('resolve', 0, 'ok', view('r1')), op('retry', 2, 'ok', view('r1')), op('retry', 4, 'info')], [view('r1')]),
      [],
    );
  });

  it('flags a retry answered with another replica, or another fence token', () => {
    assert.deepEqual(changedAssignments([op('resolve', 0, 'ok', view('r1')), op('retry', 2, 'ok', view('r2'))], []), [
      { action: 'a', seen: ['r1/f1', 'r2/f1'] },
    ]);
    assert.equal(changedAssignments([op('resolve', 0, 'ok', view('r1'))], [view('r1', 'f2')]).length, 1);
  });
});
