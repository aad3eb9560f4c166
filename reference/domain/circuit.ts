// Per-replica circuits (spec.md §14). The state is two numbers so that both
// stores keep it in plain columns: consecutive failures and the open-until
// instant in ms (0 when never opened).
import type { AdmissionReservation, CircuitState, SettlementOutcome } from '../../contract/records.ts';
import { REFERENCE_CHOICES, type ReferenceChoices } from './choices.ts';
import { toTimestamp } from './time.ts';

/** What [circuit-read] leaves open about a past `open_until`. */
export type CircuitChoices = Pick<ReferenceChoices, 'keepPastOpenUntil' | 'keepOpenUntilOnCompleted'>;

export interface Circuit {
  consecutive_failures: number;
  open_until_ms: number;
}

export const CLOSED_CIRCUIT: Readonly<Circuit> = Object.freeze({ consecutive_failures: 0, open_until_ms: 0 });

export function circuitClosed(c: Circuit, nowMs: number): boolean {
  return c.open_until_ms <= nowMs;
}

/** The circuit after a settlement that released a reservation. */
export function circuitAfterSettlement(
  c: Circuit,
  outcome: SettlementOutcome,
  admission: AdmissionReservation,
  nowMs: number,
  choices: CircuitChoices = REFERENCE_CHOICES,
): Circuit {
  // A completed settlement closes the circuit: a kept open-until moves no later than now.
  if (outcome === 'completed')
    return { consecutive_failures: 0, open_until_ms: choices.keepOpenUntilOnCompleted ? Math.min(c.open_until_ms, nowMs) : 0 };
  if (outcome !== 'outcome_unknown') return c;
  const failures = c.consecutive_failures + 1;
  const opens = failures >= admission.circuit_failure_threshold;
  // Never shorten an open circuit ([circuit-opens]).
  const openUntil = opens ? Math.max(c.open_until_ms, nowMs + admission.circuit_open_ms) : c.open_until_ms;
  return { consecutive_failures: failures, open_until_ms: openUntil };
}

export function circuitView(c: Circuit, nowMs: number, choices: CircuitChoices = REFERENCE_CHOICES): CircuitState {
  const closed = circuitClosed(c, nowMs);
  const shown = c.open_until_ms > 0 && (!closed || choices.keepPastOpenUntil);
  return {
    state: closed ? 'closed' : 'open',
    consecutive_failures: c.consecutive_failures,
    open_until: shown ? toTimestamp(c.open_until_ms) : null,
  };
}
