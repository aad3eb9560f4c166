// The lost-settlement checker flags an acknowledged release whose route is
// still reserved, and nothing a later, possibly effective attempt explains.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteView } from '../../contract/records.ts';
import type { Op } from '../check/history.ts';
import { lostSettlements } from '../history/settlement-checker.ts';

const view = (action: string, reserved: boolean) =>
  ({ reserved, assignment: { action_id: action, replica_id: 'r1' } }) as unknown as RouteView;
const op = (kind: Op['kind'], invoke: number, type: Op['type'], released?: boolean): Op => ({
  client: 1,
  kind,
  tenant: 't',
  action: 'a',
  invoke,
  complete: invoke + 1,
  type,
  ...(released !== undefined ? { released } : {}),
});

describe('the lost-settlement checker', () => {
  it('flags an acknowledged release whose route still holds its reservation', () => {
    const history = [op('resolve', 0, 'ok'), op('settle', 2, 'ok', true)];
    assert.equal(lostSettlements(history, [view('a', true)]).length, 1);
    assert.equal(lostSettlements(history, [view('a', false)]).length, 0);
  });

  it('accepts a reservation a later retry, even an indeterminate one, may have made', () => {
    const history = [op('resolve', 0, 'ok'), op('settle', 2, 'ok', true), op('retry', 4, 'info')];
    assert.equal(lostSettlements(history, [view('a', true)]).length, 0);
    assert.equal(lostSettlements([...history.slice(0, 2), op('retry', 4, 'fail')], [view('a', true)]).length, 1);
  });

  it('reads nothing into an indeterminate settlement', () => {
    assert.equal(lostSettlements([op('resolve', 0, 'ok'), op('settle', 2, 'info')], [view('a', true)]).length, 0);
  });
});
