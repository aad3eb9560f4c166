import { raceDefect } from '../defect.ts';
import { oneTurn } from '../support/pauses.ts';

export default raceDefect({
  name: 'race-retry-budget',
  clause: 'pinned-retry-budget',
  does: 'a retry checks its scopes and the pinned replica, and reserves a turn later',
  stores: ['memory'],
  hooks: { retryReservation: oneTurn },
});
