import { storeDefect } from '../defect.ts';
import { recordedAs } from '../support/outcomes.ts';

export default storeDefect({
  name: 'half-open-forgives-a-failure',
  clause: 'circuit-half-open',
  does: 'after the open period, the first outcome_unknown is not counted, so it does not reopen the circuit',
  changes: (inner) =>
    recordedAs(inner, (outcome, assignment, replica) =>
      outcome === 'outcome_unknown' &&
      replica !== null &&
      replica.circuit.state === 'closed' &&
      replica.circuit.consecutive_failures >= assignment.admission.circuit_failure_threshold
        ? 'cancelled'
        : outcome,
    ),
});
