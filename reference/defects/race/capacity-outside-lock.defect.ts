import { capacityRefusal } from '../../domain/resolve-decision.ts';
import { raceDefect } from '../defect.ts';
import { oneTurn, pauseMs } from '../support/pauses.ts';

/**
 * Memory: a new route decides its replica and scopes, lets other requests
 * decide meanwhile (for about a storage round trip: requests sent together
 * reach a server a millisecond or more apart), then commits what it decided.
 * PostgreSQL: the scopes are checked by a read outside the transaction's
 * locks and then reserved without a check.
 */
export default raceDefect({
  name: 'capacity-outside-lock',
  clause: 'admission-never-overbooked',
  does: 'capacity and scopes are checked, then reserved after a pause in which other attempts check the same counters',
  stores: ['memory', 'postgres'],
  hooks: {
    newRoutePlan: pauseMs(10),
    async scopesOutsideLock(scopes, active) {
      const counts = await Promise.all(scopes.map(active));
      const refusal = capacityRefusal(scopes, (s) => counts[scopes.indexOf(s)]!);
      if (refusal) throw refusal;
      await oneTurn();
    },
  },
});
