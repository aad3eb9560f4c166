import { raceDefect } from '../defect.ts';
import { oneTurn } from '../support/pauses.ts';

export default raceDefect({
  name: 'race-action-insert',
  clause: 'pinned-reserved',
  does: 'a resolve finds the action unrouted and creates its route a turn later',
  stores: ['memory'],
  hooks: { actionInsert: oneTurn },
});
