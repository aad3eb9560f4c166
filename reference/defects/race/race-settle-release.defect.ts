import { raceDefect } from '../defect.ts';
import { oneTurn } from '../support/pauses.ts';

export default raceDefect({
  name: 'race-settle-release',
  clause: 'settle-release-once',
  does: 'settlement decides "still reserved" and releases a turn later',
  stores: ['memory'],
  hooks: { settleRelease: oneTurn },
});
