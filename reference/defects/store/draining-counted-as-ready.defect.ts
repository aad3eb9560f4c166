import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'draining-counted-as-ready',
  clause: 'fleet-status',
  does: 'fleet status counts draining replicas among the ready ones',
  changes: (inner) => ({
    async fleetStatus() {
      const s = await inner.fleetStatus();
      return { ...s, ready_replicas: s.ready_replicas + s.draining_replicas, draining_replicas: 0 };
    },
  }),
});
