// How one observed instance (a pod) becomes a registry replica. The fixed
// identity of a replica (id, endpoint, peer, topology) is rendered from the
// binding file's template and the pod's UID, address, port and zone, then
// checked against the contract's ReplicaProvision schema, so a template that
// would produce an invalid record fails when it is loaded, not per pod.
import type { HealthReport, PrincipalKind, ReplicaProvision, ReplicaStatus } from '../../contract/records.ts';
import { invalid } from '../../contract/registry-error.ts';
import { violationOf } from '../../contract/schemas.ts';
import type { Instance } from '../instance.ts';
import type { DirectoryTarget } from '../target.ts';

export interface ReplicaTemplate {
  /** Must contain `{uid}`: the pod UID is the replica's identity. */
  replicaIdPattern: string;
  /** `{host}` (an IPv6 address comes bracketed) and `{port}`, e.g. `http://{host}:{port}/mcp`. */
  endpointPattern: string;
  peerPrincipalIdPattern: string;
  peerPrincipalKind: PrincipalKind;
  peerDidPattern: string;
  trustDomain: string;
  transportProfile: string;
  /** `zone` may be `{zone}`: the pod's zone, which it must then have. */
  topology: { region: string; zone: string; capacityClass: string };
  capacity: number;
  leaseTtlMs: number;
}

const PLACEHOLDER = /\{(uid|host|port|zone)\}/g;

function render(pattern: string, values: Record<string, string>): string {
  return pattern.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the replica template needs {${name}}, which this pod does not have`);
    return value;
  });
}

function valuesOf(instance: Instance): Record<string, string> {
  // Endpoints are sorted, so the first one is a stable choice for a pod.
  const endpoint = instance.endpoints[0]!;
  const host = endpoint.addressType === 'IPv6' ? `[${endpoint.address}]` : endpoint.address;
  return { uid: instance.id, host, port: String(endpoint.port), ...(instance.zone !== null ? { zone: instance.zone } : {}) };
}

export function replicaIdFor(template: ReplicaTemplate, instanceId: string): string {
  return render(template.replicaIdPattern, { uid: instanceId });
}

/** The complete provision record of a pod's replica with the given health. */
export function provisionFor(
  template: ReplicaTemplate,
  target: DirectoryTarget,
  instance: Instance,
  health: HealthReport,
): ReplicaProvision {
  const values = valuesOf(instance);
  const record: ReplicaProvision = {
    id: replicaIdFor(template, instance.id),
    instance_id: target.instanceId,
    version_id: target.versionId,
    endpoint: render(template.endpointPattern, values),
    peer_principal_id: render(template.peerPrincipalIdPattern, values),
    peer_principal_kind: template.peerPrincipalKind,
    peer_did: render(template.peerDidPattern, values),
    trust_domain: template.trustDomain,
    transport_profile: template.transportProfile,
    topology: {
      region: template.topology.region,
      zone: render(template.topology.zone, values),
      capacity_class: template.topology.capacityClass,
    },
    ...health,
  };
  const violation = violationOf('ReplicaProvision', record);
  if (violation) throw invalid(`ReplicaProvision: ${violation.message}`, { path: violation.path });
  return record;
}

export function healthReport(template: ReplicaTemplate, revision: number, status: ReplicaStatus, leaseExpiresMs: number): HealthReport {
  return { health_revision: revision, status, lease_expires_at: new Date(leaseExpiresMs).toISOString(), capacity: template.capacity };
}

/**
 * Checks a template by rendering it for a sample pod (IPv4 and IPv6); throws
 * with the reason when a record it produces would be refused.
 */
export function checkTemplate(template: ReplicaTemplate, target: DirectoryTarget): void {
  if (!template.replicaIdPattern.includes('{uid}')) throw new Error('replica id pattern must contain {uid}');
  if (!Number.isSafeInteger(template.leaseTtlMs) || template.leaseTtlMs <= 0)
    throw new Error('lease TTL must be a positive number of milliseconds');
  const sample = (address: string, addressType: 'IPv4' | 'IPv6'): Instance => ({
    id: '0a1b2c3d-4e5f-6789-abcd-ef0123456789',
    endpoints: [{ addressType, address, portName: 'http', port: 8080, protocol: 'TCP' }],
    ready: true,
    serving: true,
    terminating: false,
    state: 'ready',
    zone: 'zone-a',
    weight: null,
    metadata: {},
  });
  for (const pod of [sample('10.0.0.1', 'IPv4'), sample('2001:db8::1', 'IPv6')]) {
    provisionFor(template, target, pod, healthReport(template, 1, 'ready', 0));
  }
}
