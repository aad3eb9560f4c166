// The three registry operations the bridge needs, and nothing more: it
// provisions replicas it has not seen, reports their health, and reads a
// replica back when it must learn the current health revision. Failures are
// RegistryErrors carrying a catalogue code, whichever adapter is used.
import type { ConnectorReplica, HealthReport, ReplicaProvision, WriteResult } from '../../../contract/records.ts';
import type { RegistryStore } from '../../store/registry-store.ts';

export interface LifecyclePort {
  provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>>;
  reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>>;
  /** null when the replica does not exist. */
  getReplica(id: string): Promise<ConnectorReplica | null>;
}

/** The in-process adapter: the store's own operations. */
export function storeLifecycle(store: Pick<RegistryStore, 'provisionReplica' | 'reportHealth' | 'getReplica'>): LifecyclePort {
  return {
    provisionReplica: (record) => store.provisionReplica(record),
    reportHealth: (id, report) => store.reportHealth(id, report),
    getReplica: (id) => store.getReplica(id),
  };
}
