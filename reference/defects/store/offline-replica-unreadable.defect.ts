import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'offline-replica-unreadable',
  clause: 'records-never-deleted',
  does: 'a replica taken offline is gone: reading it is NOT_FOUND',
  changes: (inner) => ({
    async getReplica(id) {
      const replica = await inner.getReplica(id);
      return replica?.status === 'offline' ? null : replica;
    },
  }),
});
