// Circuit behaviour after a settlement that released a reservation
// ([circuit-counting], [circuit-opens]), judged on the replica's circuit as the
// registry reports it before and after.
import type { RouteAssignment, SettlementOutcome } from '../../../contract/records.ts';
import { expectProperty } from '../../check/violations.ts';
import type { TimeWindow } from '../../targets/target.ts';
import { openUntilKept, type SettlementSnapshot } from '../settlement-probe.ts';

export function expectCircuitAfterRelease(
  what: string,
  outcome: SettlementOutcome,
  a: RouteAssignment,
  before: SettlementSnapshot,
  after: SettlementSnapshot,
  settledIn: TimeWindow,
): void {
  const was = before.circuit;
  const now = after.circuit;
  if (outcome === 'completed') {
    expectProperty(
      'circuit-behaviour',
      now.consecutive_failures === 0 && now.state === 'closed',
      () => `${what}: a completion left the circuit ${JSON.stringify(now)}; it must reset and close`,
    );
    return;
  }
  if (outcome !== 'outcome_unknown') {
    const same = now.consecutive_failures === was.consecutive_failures && openUntilKept(before, after);
    expectProperty(
      'circuit-behaviour',
      same,
      () => `${what}: ${outcome} changed the circuit ${JSON.stringify(was)} → ${JSON.stringify(now)}`,
    );
    return;
  }
  const failures = was.consecutive_failures + 1;
  expectProperty(
    'circuit-behaviour',
    now.consecutive_failures === failures,
    () => `${what}: consecutive failures went ${was.consecutive_failures} → ${now.consecutive_failures}`,
  );
  const threshold = a.admission.circuit_failure_threshold;
  const openUntil = now.open_until === null ? null : Date.parse(now.open_until);
  if (failures < threshold) {
    expectProperty(
      'circuit-behaviour',
      openUntilKept(before, after),
      () => `${what}: the circuit moved (${was.open_until} → ${now.open_until}) after ${failures} of ${threshold} unknown outcomes`,
    );
    return;
  }
  const earliest = settledIn.lo + a.admission.circuit_open_ms;
  const previous = was.open_until === null ? 0 : Date.parse(was.open_until);
  expectProperty(
    'circuit-behaviour',
    openUntil !== null && openUntil >= Math.max(earliest, previous),
    () =>
      `${what}: ${failures} unknown outcomes reached the threshold ${threshold} but the circuit is open until ${now.open_until}, expected at least ${new Date(earliest).toISOString()}`,
  );
  if (openUntil! > after.window.hi)
    expectProperty('circuit-behaviour', now.state === 'open', () => `${what}: the circuit reached its threshold but reads ${now.state}`);
}
