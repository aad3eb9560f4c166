// The three registry operations the bridge needs, and nothing more: it
// provisions replicas it has not seen, reports their health, and reads a
// replica back when it must learn the current health revision. Failures are
// RegistryErrors carrying a catalogue code. The bridge runs over HTTP
// (http-lifecycle.ts); a registry store satisfies this interface as it is,
// which is how the tests drive the bridge in-process.
import type { ConnectorReplica, HealthReport, ReplicaProvision, WriteResult } from '../../contract/records.ts';

export interface LifecyclePort {
  provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>>;
  reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>>;
  /** null when the replica does not exist. */
  getReplica(id: string): Promise<ConnectorReplica | null>;
}
