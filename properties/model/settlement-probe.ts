// The registry's own numbers around one settlement: the pinned replica's
// active count and circuit, every counter the attempt holds, and the route.
// Idempotent settlement and circuit behaviour are judged on the difference
// between the two reads, not on the model, so a broken registry is caught
// even where the model would agree with it.
import type { CircuitState, RouteView } from '../../contract/records.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import { diverged, IndeterminateOutcome, skipIndeterminateRun } from '../check/violations.ts';
import type { RunContext } from '../targets/target.ts';
import type { ModelRoute } from './model-state.ts';
import type { TimeWindow } from '../targets/target.ts';

export interface SettlementSnapshot {
  active: number;
  circuit: CircuitState;
  /** `kind/key` → active, for every scope the attempt holds or pinned. */
  counters: Record<string, number>;
  route: RouteView | null;
  window: TimeWindow;
}

export async function probeSettlement(
  run: RunContext,
  route: ModelRoute,
  asTenant: string = route.assignment.tenant_id,
): Promise<SettlementSnapshot> {
  const a = route.assignment;
  const scopes = [...a.admission.base_scopes, ...(a.admission.retry_scope ? [a.admission.retry_scope] : [])];
  const { result, window } = await run.clock.around(() =>
    Promise.all([
      run.store.getReplica(a.replica_id),
      Promise.all(scopes.map((s) => run.store.getAdmissionCounter(s.kind, s.key))),
      run.store.route(asTenant, a.action_id),
    ]),
  );
  if (result.status === 'rejected') {
    if (IndeterminateOutcome.is(result.reason)) skipIndeterminateRun(result.reason);
    if (RegistryError.is(result.reason)) diverged(`reading around a settlement failed with ${result.reason.code}`);
    throw result.reason;
  }
  const [replica, counters, view] = result.value;
  if (!replica) return diverged(`the pinned replica ${a.replica_id} is missing`);
  return {
    active: replica.active_assignments,
    circuit: replica.circuit,
    counters: Object.fromEntries(scopes.map((s, i) => [`${s.kind}/${s.key}`, counters[i]!.active])),
    route: view,
    window,
  };
}

/**
 * Whether the circuit's open-until instant stayed as it was between two reads:
 * the same, or cleared once it had passed ([circuit-read] leaves clearing a
 * past instant open).
 */
export function openUntilKept(before: SettlementSnapshot, after: SettlementSnapshot): boolean {
  const was = before.circuit.open_until;
  const now = after.circuit.open_until;
  return now === was || (now === null && was !== null && Date.parse(was) <= after.window.hi);
}

/** What differs between two snapshots, in words; empty when nothing does. */
export function changesBetween(before: SettlementSnapshot, after: SettlementSnapshot): string[] {
  const changes: string[] = [];
  if (before.active !== after.active) changes.push(`replica active_assignments ${before.active} → ${after.active}`);
  for (const [k, v] of Object.entries(before.counters))
    if (after.counters[k] !== v) changes.push(`counter ${k} ${v} → ${after.counters[k]}`);
  if (before.circuit.consecutive_failures !== after.circuit.consecutive_failures || !openUntilKept(before, after)) {
    changes.push(`circuit ${JSON.stringify(before.circuit)} → ${JSON.stringify(after.circuit)}`);
  }
  if (JSON.stringify(before.route) !== JSON.stringify(after.route)) changes.push('the route (reservation or recorded outcome)');
  return changes;
}
