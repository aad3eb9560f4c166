// The history checker on hand-written histories: it must find reservations
// that certainly overlapped beyond a limit, and must not invent one from
// intervals that only touch or from operations whose outcome is unknown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteView, ScopeReservation } from '../../contract/records.ts';
import type { Op } from '../check/history.ts';
import { certainHolds, constantCapacity, findOverbooking } from '../history/overbooking-checker.ts';

function view(action: string, replica: string, scopes: ScopeReservation[] = [], retry: ScopeReservation | null = null): RouteView {
  const admission = {
    policy_ref: null,
    policy_revision: 1,
    base_scopes: scopes,
    retry_scope: retry,
    circuit_failure_threshold: 5,
    circuit_open_ms: 30000,
  };
  return {
    assignment: { action_id: action, replica_id: replica, admission } as unknown as RouteView['assignment'],
    reserved: true,
    last_settlement: null,
  };
}

const resolve = (client: number, action: string, invoke: number, complete: number, v?: RouteView, type: Op['type'] = 'ok'): Op => ({
  client,
  kind: 'resolve',
  tenant: 't',
  action,
  invoke,
  complete,
  type,
  ...(v ? { view: v } : {}),
});
const settle = (client: number, action: string, invoke: number, complete: number, type: Op['type'] = 'ok'): Op => ({
  client,
  kind: 'settle',
  tenant: 't',
  action,
  invoke,
  complete,
  type,
  released: true,
});
const capacityOne = constantCapacity(1);

describe('overbooking checker', () => {
  it('finds two reservations certainly held together on a replica of capacity 1', () => {
    const h = [resolve(1, 'a', 0, 2, view('a', 'r')), resolve(2, 'b', 1, 3, view('b', 'r')), settle(1, 'a', 5, 6), settle(2, 'b', 5, 6)];
    const found = findOverbooking(certainHolds(h, 10), capacityOne);
    assert.equal(found?.key, 'replica r');
    assert.deepEqual(found?.holds.map((x) => x.action).sort(), ['a', 'b']);
  });

  it('accepts reservations whose certain intervals only touch', () => {
    // a is certainly held from 2 until its settlement is sent at 4; b from 4.
    const h = [resolve(1, 'a', 0, 2, view('a', 'r')), settle(1, 'a', 4, 5), resolve(2, 'b', 1, 4, view('b', 'r'))];
    assert.equal(findOverbooking(certainHolds(h, 10), capacityOne), null);
  });

  it('accepts a resolve that may have been served after a concurrent settlement', () => {
    // b's resolve overlaps a's settlement: the registry may have released a first.
    const h = [resolve(1, 'a', 0, 1, view('a', 'r')), settle(1, 'a', 2, 6), resolve(2, 'b', 3, 5, view('b', 'r'))];
    assert.equal(findOverbooking(certainHolds(h, 10), capacityOne), null);
  });

  it('counts nothing for an indeterminate resolve, and holds until an indeterminate settlement was sent', () => {
    const unknown = [resolve(1, 'a', 0, 2, undefined, 'info'), resolve(2, 'b', 1, 3, view('b', 'r'))];
    assert.equal(findOverbooking(certainHolds(unknown, 10), capacityOne), null);
    const lostSettle = [resolve(1, 'a', 0, 1, view('a', 'r')), settle(1, 'a', 5, 9, 'info'), resolve(2, 'b', 2, 3, view('b', 'r'))];
    assert.equal(findOverbooking(certainHolds(lostSettle, 10), capacityOne)?.key, 'replica r');
  });

  it('keeps a reservation held across a settlement that surely did nothing, and counts no retry for it', () => {
    // Before, the refused (or never forwarded) settlement ended the hold, and the next resolve, which answers the
    // same reservation, was counted as a retry holding the tenant retry scope: overbooked at its limit of 1.
    const tenant: ScopeReservation = { kind: 'tenant', key: 't', limit: 5 };
    const retry: ScopeReservation = { kind: 'tenant_retry', key: 't', limit: 1 };
    const other = [
      resolve(2, 'b', 0, 1, view('b', 'r2', [tenant], retry)),
      settle(2, 'b', 2, 3),
      resolve(2, 'b', 4, 5, view('b', 'r2', [tenant], retry)),
    ];
    const h = [
      resolve(1, 'a', 0, 1, view('a', 'r1', [tenant], retry)),
      settle(1, 'a', 2, 3, 'fail'),
      resolve(1, 'a', 4, 5, view('a', 'r1', [tenant], retry)),
      ...other,
    ];
    const holds = certainHolds(h, 10).filter((x) => x.action === 'a');
    assert.deepEqual(
      holds.map((x) => [x.start, x.end, x.scopes.map((sc) => sc.kind)]),
      [[1, 10, ['tenant']]],
    );
    assert.equal(findOverbooking(certainHolds(h, 10), constantCapacity(2)), null);
  });

  it('checks every admission scope a reservation pins, retries included', () => {
    const tenant: ScopeReservation = { kind: 'tenant', key: 't', limit: 5 };
    const retry: ScopeReservation = { kind: 'tenant_retry', key: 't', limit: 1 };
    const h: Op[] = [
      resolve(1, 'a', 0, 1, view('a', 'r1', [tenant], retry)),
      settle(1, 'a', 2, 3),
      { ...resolve(1, 'a', 4, 5, view('a', 'r1', [tenant], retry)), kind: 'retry' },
      resolve(2, 'b', 0, 1, view('b', 'r2', [tenant], retry)),
      settle(2, 'b', 2, 3),
      { ...resolve(2, 'b', 4, 6, view('b', 'r2', [tenant], retry)), kind: 'retry' },
    ];
    const found = findOverbooking(certainHolds(h, 10), constantCapacity(10));
    assert.equal(found?.key, 'tenant_retry/t');
    assert.equal(found?.limit, 1);
  });

  it('judges a replica against the capacity it surely had after a report lowered it', () => {
    const h = [resolve(1, 'a', 0, 1, view('a', 'r')), resolve(2, 'b', 0, 2, view('b', 'r'))];
    const lowered = { at: (_r: string, t: number) => (t >= 5 ? 1 : 2), changes: () => [5] };
    assert.equal(findOverbooking(certainHolds(h, 4), lowered), null, 'both reservations ended before the report');
    const found = findOverbooking(certainHolds(h, 10), lowered);
    assert.deepEqual([found?.key, found?.limit, found?.at], ['replica r', 1, 5]);
  });

  it('judges a shared counter against the largest limit its reservations pinned ([admission-counters])', () => {
    const low: ScopeReservation = { kind: 'tenant', key: 't', limit: 1 };
    const high: ScopeReservation = { kind: 'tenant', key: 't', limit: 3 };
    const h = [resolve(1, 'a', 0, 1, view('a', 'r1', [low])), resolve(2, 'b', 0, 1, view('b', 'r2', [high]))];
    assert.equal(findOverbooking(certainHolds(h, 10), constantCapacity(10)), null);
    const three = [...h, resolve(3, 'c', 0, 1, view('c', 'r3', [high])), resolve(4, 'd', 0, 1, view('d', 'r4', [high]))];
    assert.equal(findOverbooking(certainHolds(three, 10), constantCapacity(10))?.key, 'tenant/t');
  });
});
