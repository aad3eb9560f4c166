import { storeDefect } from '../defect.ts';
import { recordedAs } from '../support/outcomes.ts';

export default storeDefect({
  name: 'unknown-outcomes-not-counted',
  clause: 'circuit-counting',
  does: "an outcome_unknown settlement is recorded as cancelled: it adds no failure to the replica's circuit",
  changes: (inner) => recordedAs(inner, (outcome) => (outcome === 'outcome_unknown' ? 'cancelled' : outcome)),
});
