import { storeDefect } from '../defect.ts';
import { recordedAs } from '../support/outcomes.ts';

export default storeDefect({
  name: 'circuit-opens-one-late',
  clause: 'circuit-opens',
  does: 'the failure that reaches the circuit threshold is not counted, so the circuit opens one failure late',
  changes: (inner) =>
    recordedAs(inner, (outcome, assignment, replica) =>
      outcome === 'outcome_unknown' &&
      replica !== null &&
      replica.circuit.state === 'closed' &&
      replica.circuit.consecutive_failures + 1 === assignment.admission.circuit_failure_threshold
        ? 'cancelled'
        : outcome,
    ),
});
