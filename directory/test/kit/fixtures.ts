// Small valid values for directory tests: a reference target, endpoints,
// instances and snapshots built through the public constructors.
import { createChange, type InstanceChange } from '../../change.ts';
import type { NetworkEndpoint } from '../../endpoint.ts';
import { createInstance, type Instance, type InstanceInput } from '../../instance.ts';
import { createSnapshot, type InstanceSnapshot, type SnapshotState } from '../../snapshot.ts';
import { createTarget, type DirectoryTarget } from '../../target.ts';

export const REFERENCE_TARGET_INPUT: DirectoryTarget = {
  instanceId: 'cinst_alpha',
  versionId: 'cver_alpha_1',
  manifestDigest: `sha256:${'a'.repeat(64)}`,
  canonicalEndpoint: 'https://connector.example/mcp',
  audience: 'https://connector.example',
};

export function referenceTarget(over: Partial<DirectoryTarget> = {}): DirectoryTarget {
  return createTarget({ ...REFERENCE_TARGET_INPUT, ...over });
}

export function tcpEndpoint(address: string, port = 8080, portName = 'http'): NetworkEndpoint {
  return { addressType: address.includes(':') ? 'IPv6' : 'IPv4', address, portName, port, protocol: 'TCP' };
}

export function instance(id: string, over: Partial<InstanceInput> = {}): Instance {
  return createInstance({
    id,
    endpoints: [tcpEndpoint('10.0.0.1')],
    ready: true,
    serving: true,
    terminating: false,
    metadata: { 'kubernetes.target_ref_uid': id },
    ...over,
  });
}

export function snapshot(
  state: SnapshotState,
  instances: Instance[] = [],
  localOrder = 0,
  tokens: string[] = ['service-rv', 'slice-rv'],
  target: DirectoryTarget = referenceTarget(),
): InstanceSnapshot {
  return createSnapshot({ target, revision: { sourceTokens: tokens, localOrder }, state, instances });
}

export function instancesChanged(result: InstanceSnapshot, upserts: Instance[], deleted: string[] = []): InstanceChange {
  return createChange({ kind: 'instances_changed', upserts, deletedInstanceIds: deleted, previousState: null, snapshot: result });
}
