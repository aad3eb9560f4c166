// The replicas a store defect has seen provisioned, so it can read them back
// (the port has no list of replicas), and a health report that moves one
// replica's state without going through a caller.
import type { ConnectorReplica, HealthReport } from '../../../contract/records.ts';
import type { RegistryPort } from '../../../contract/target-port.ts';

export class SeenReplicas {
  private readonly ids = new Set<string>();

  constructor(private readonly inner: RegistryPort) {}

  /** provisionReplica, remembering the replica. */
  readonly provisionReplica: RegistryPort['provisionReplica'] = async (record) => {
    this.ids.add(record.id);
    return this.inner.provisionReplica(record);
  };

  async all(): Promise<ConnectorReplica[]> {
    return (await Promise.all([...this.ids].map((id) => this.inner.getReplica(id)))).filter((r): r is ConnectorReplica => r !== null);
  }
}

/** Moves a replica's state as its own health report would, one revision up. */
export function nudge(inner: RegistryPort, replica: ConnectorReplica, change: Partial<Omit<HealthReport, 'health_revision'>>) {
  return inner.reportHealth(replica.id, {
    health_revision: replica.health_revision + 1,
    status: replica.status,
    lease_expires_at: replica.lease_expires_at,
    capacity: replica.capacity,
    ...change,
  });
}
