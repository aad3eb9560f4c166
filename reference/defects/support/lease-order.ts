// Lease maintenance that, every other call, takes the earliest stale replica
// and the next one, while reads show only the next one offline until
// `shownAfterMs` (never, with null: until the next call). With a time, that
// is a correct registry whose call found the earliest held by a concurrent
// call, which commits it then; without, one that takes a later lease first.
import type { ConnectorReplica } from '../../../contract/records.ts';
import type { RegistryPort } from '../../../contract/target-port.ts';

export function takesNextLeaseFirst(inner: RegistryPort, shownAfterMs: number | null): Partial<RegistryPort> {
  let calls = 0;
  const ids = new Set<string>();
  const hidden = new Map<string, ConnectorReplica>();
  return {
    async provisionReplica(record) {
      ids.add(record.id);
      return inner.provisionReplica(record);
    },
    async getReplica(id) {
      return hidden.get(id) ?? inner.getReplica(id);
    },
    async expireLeases(limit) {
      hidden.clear();
      if (calls++ % 2 === 0) return inner.expireLeases(limit);
      const live = (await Promise.all([...ids].map((id) => inner.getReplica(id)))).filter(
        (r): r is ConnectorReplica => r !== null && r.status !== 'offline',
      );
      const { expired } = await inner.expireLeases(limit + 1);
      if (expired <= limit) return { expired };
      const taken = (await Promise.all(live.map(async (r) => ((await inner.getReplica(r.id))?.status === 'offline' ? [r] : [])))).flat();
      const [first] = taken.sort((a, b) => Date.parse(a.lease_expires_at) - Date.parse(b.lease_expires_at) || (a.id < b.id ? -1 : 1));
      if (first) {
        hidden.set(first.id, first);
        if (shownAfterMs !== null) setTimeout(() => hidden.delete(first.id), shownAfterMs);
      }
      return { expired: expired - 1 };
    },
  };
}
