import { storeDefect } from '../defect.ts';

/** Disabled connector types drop out of the count, against decision 22 of the contract. */
export default storeDefect({
  name: 'fleet-status-counts-enabled-types',
  clause: 'fleet-status',
  does: 'fleet status counts only enabled connector types',
  changes: (inner) => {
    const types = new Set<string>();
    return {
      async putConnectorType(record) {
        const result = await inner.putConnectorType(record);
        types.add(record.id);
        return result;
      },
      async fleetStatus() {
        const status = await inner.fleetStatus();
        const disabled = (await Promise.all([...types].map((id) => inner.getConnectorType(id)))).filter((t) => t && !t.enabled).length;
        return { ...status, connector_types: status.connector_types - disabled };
      },
    };
  },
});
