// The model's state: plain data (records, maps keyed by wire id, numbers), so
// it clones with structuredClone and prints as JSON. It holds only what the
// properties need to predict: record states, counters, replica bookkeeping,
// routes and open catalog walks — never the registry's indexes or caches.
import type {
  AdmissionPolicy,
  CapabilityBinding,
  ConnectorInstance,
  HealthReport,
  ReplicaProvision,
  RouteAssignment,
  ScopeReservation,
  SettlementOutcome,
  VersionStatus,
} from '../../contract/records.ts';

export interface ModelVersion {
  id: string;
  type: string;
  status: VersionStatus;
  capabilities: string[];
  profiles: string[];
  manifestDigest: string;
}

export interface ModelReplica {
  provision: ReplicaProvision;
  health: HealthReport;
  leaseMs: number;
  /**
   * Set by lease expiry: the registry may have set the lease to any instant
   * up to this one, the latest its expiry could have acted at
   * ([lease-expiry-effect]: no later than now). A read learns the value.
   */
  leaseNoLaterThan?: number;
  active: number;
  failures: number;
  /**
   * When the circuit stops being open, in ms; 0 when it never opened or a
   * completion closed it. A target whose clock the harness does not drive
   * stamps it somewhere in [openUntil, openUntil + openUntilSpan] until a read
   * narrows it.
   */
  openUntil: number;
  openUntilSpan: number;
}

export interface ModelRoute {
  /** The assignment as first returned; every later observation must equal it. */
  assignment: RouteAssignment;
  reserved: boolean;
  last: SettlementOutcome | null;
  /** The scopes the current (or last) reservation took: base, plus retry for a retry. */
  held: ScopeReservation[];
}

export interface ModelWalk {
  tenant: string;
  limit: number;
  profile: string | null;
  /** The revision of the first page; every later page must carry it. */
  revision: number;
  /** Everything the walk must return, in order, as the model saw it at that revision. */
  expected: string[];
  returned: number;
  total: number;
  cursor: string | null;
}

export interface ModelState {
  /** The last catalog revision the target reported; the model knows only whether it moved. */
  revision: number;
  types: Record<string, { enabled: boolean }>;
  versions: Record<string, ModelVersion>;
  instances: Record<string, ConnectorInstance>;
  /** Keyed by `tenant␟capability␟instance`. */
  bindings: Record<string, CapabilityBinding>;
  policies: Record<string, AdmissionPolicy>;
  replicas: Record<string, ModelReplica>;
  /** Keyed by `kind/key`; absent means 0. */
  counters: Record<string, number>;
  routes: Record<string, ModelRoute>;
  fenceTokens: string[];
  walks: ModelWalk[];
}

export function bindingKey(b: Pick<CapabilityBinding, 'tenant_id' | 'capability_id' | 'instance_id'>): string {
  return `${b.tenant_id}\u001f${b.capability_id}\u001f${b.instance_id}`;
}

export function counterName(kind: string, key: string): string {
  return `${kind}/${key}`;
}

export function counterOf(s: ModelState, kind: string, key: string): number {
  return s.counters[counterName(kind, key)] ?? 0;
}

export function addToCounters(s: ModelState, scopes: readonly ScopeReservation[], delta: 1 | -1): void {
  for (const scope of scopes) {
    const name = counterName(scope.kind, scope.key);
    s.counters[name] = (s.counters[name] ?? 0) + delta;
  }
}

export function emptyState(): ModelState {
  return {
    revision: 0,
    types: {},
    versions: {},
    instances: {},
    bindings: {},
    policies: {},
    replicas: {},
    counters: {},
    routes: {},
    fenceTokens: [],
    walks: [],
  };
}
