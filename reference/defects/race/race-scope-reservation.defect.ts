import { raceDefect } from '../defect.ts';
import { oneTurn } from '../support/pauses.ts';

export default raceDefect({
  name: 'race-scope-reservation',
  clause: 'admission-never-overbooked',
  does: 'a new route checks its admission scopes and reserves them a turn later',
  stores: ['memory'],
  hooks: { newRouteScopes: oneTurn },
});
