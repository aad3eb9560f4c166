import { raceDefect } from '../defect.ts';
import { oneTurn } from '../support/pauses.ts';

export default raceDefect({
  name: 'race-replica-capacity',
  clause: 'admission-never-overbooked',
  does: 'a new route picks a replica with room and takes its unit a turn later',
  stores: ['memory'],
  hooks: { newRouteReplica: oneTurn },
});
