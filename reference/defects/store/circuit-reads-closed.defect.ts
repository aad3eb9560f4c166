import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'circuit-reads-closed',
  clause: 'circuit-read',
  does: 'replica reads always show a closed circuit with no failures, whatever settlements counted',
  changes: (inner) => ({
    async getReplica(id) {
      const replica = await inner.getReplica(id);
      return replica && { ...replica, circuit: { state: 'closed', consecutive_failures: 0, open_until: null } };
    },
  }),
});
