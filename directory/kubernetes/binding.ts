// Kubernetes Binding v1: the explicit, immutable configuration that ties one
// exact target to one Service and its EndpointSlices. Every field is
// required; nothing has a default, so an operator states every bound and
// marker instead of inheriting one.
import { invalidInput } from '../outcome.ts';
import { createTarget, isCanonicalOrigin, isValidTarget, targetKey, type DirectoryTarget } from '../target.ts';
import { deepFreeze, isOpaqueToken } from '../text.ts';
import { isLabelKey, isLabelValue, isNamespace, isPortName, isServiceName } from './names.ts';

export const BINDING_VERSION_LABEL = 'fleetproof.dev/binding-version';
export const TARGET_LABEL = 'fleetproof.dev/directory-target';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const RESERVED_LABEL_KEYS = [BINDING_VERSION_LABEL, TARGET_LABEL, SERVICE_NAME_LABEL, MANAGED_BY_LABEL] as const;

/** The complete metadata allowlist on each instance. */
export const TARGET_REF_UID_KEY = 'kubernetes.target_ref_uid';
export const ADDRESS_TYPE_KEY = 'kubernetes.address_type';

export interface ResourceBounds {
  /** Largest list body read, in bytes. */
  listResponseBytes: number;
  /** Largest single watch line, in bytes. */
  watchEnvelopeBytes: number;
  /** Most EndpointSlices the target may have at once. */
  endpointSliceCount: number;
  /** Most endpoints across all slices, counted before duplicates fold. */
  endpointCount: number;
  /** Watch queue capacity: changes not yet pulled by the consumer. */
  pendingChanges: number;
}

export const BOUND_NAMES = ['listResponseBytes', 'watchEnvelopeBytes', 'endpointSliceCount', 'endpointCount', 'pendingChanges'] as const;

export interface KubernetesBindingInput {
  version: 'v1';
  target: DirectoryTarget;
  apiOrigin: string;
  namespace: string;
  serviceName: string;
  serviceUid: string;
  endpointSliceManagedBy: string;
  serviceOwnerLabels: Readonly<Record<string, string>>;
  endpointSliceLabels: Readonly<Record<string, string>>;
  addressType: 'IPv4' | 'IPv6';
  portName: string;
  protocol: 'TCP';
  bounds: ResourceBounds;
}

export interface KubernetesBinding extends Readonly<KubernetesBindingInput> {
  /** targetKey(target), carried by the Service and every slice as a marker. */
  readonly targetKey: string;
}

function labelsValid(labels: unknown, instanceId: string): boolean {
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) return false;
  const entries = Object.entries(labels);
  // A raw instance id is never accepted as a marker: markers are derived keys.
  return (
    entries.length > 0 &&
    entries.every(
      ([k, v]) => isLabelKey(k) && isLabelValue(v) && !(RESERVED_LABEL_KEYS as readonly string[]).includes(k) && v !== instanceId,
    )
  );
}

function boundsValid(bounds: unknown): boolean {
  if (typeof bounds !== 'object' || bounds === null) return false;
  const b = bounds as Record<string, unknown>;
  return BOUND_NAMES.every((n) => Number.isSafeInteger(b[n]) && (b[n] as number) > 0);
}

/** Checks a binding as it is now, including the derived target key. */
export function isValidBinding(value: unknown): value is KubernetesBinding {
  if (typeof value !== 'object' || value === null) return false;
  const b = value as Record<string, unknown>;
  if (b['version'] !== 'v1' || !isValidTarget(b['target'])) return false;
  const target = b['target'] as DirectoryTarget;
  return (
    isCanonicalOrigin(b['apiOrigin']) &&
    isNamespace(b['namespace']) &&
    isServiceName(b['serviceName']) &&
    isOpaqueToken(b['serviceUid']) &&
    isLabelValue(b['endpointSliceManagedBy']) &&
    labelsValid(b['serviceOwnerLabels'], target.instanceId) &&
    labelsValid(b['endpointSliceLabels'], target.instanceId) &&
    (b['addressType'] === 'IPv4' || b['addressType'] === 'IPv6') &&
    isPortName(b['portName']) &&
    b['protocol'] === 'TCP' &&
    boundsValid(b['bounds']) &&
    b['targetKey'] === targetKey(target)
  );
}

export function createBinding(input: KubernetesBindingInput): KubernetesBinding {
  if (typeof input !== 'object' || input === null || !isValidTarget(input.target)) throw invalidInput();
  const target = createTarget(input.target);
  const candidate: KubernetesBinding = {
    version: input.version,
    target,
    apiOrigin: input.apiOrigin,
    namespace: input.namespace,
    serviceName: input.serviceName,
    serviceUid: input.serviceUid,
    endpointSliceManagedBy: input.endpointSliceManagedBy,
    serviceOwnerLabels: { ...input.serviceOwnerLabels },
    endpointSliceLabels: { ...input.endpointSliceLabels },
    addressType: input.addressType,
    portName: input.portName,
    protocol: input.protocol,
    bounds: input.bounds && (Object.fromEntries(BOUND_NAMES.map((n) => [n, input.bounds[n]])) as unknown as ResourceBounds),
    targetKey: targetKey(target),
  };
  if (!isValidBinding(candidate)) throw invalidInput();
  return deepFreeze(candidate);
}

/** Labels the Service must carry (extra labels are allowed). */
export function serviceLabels(b: KubernetesBinding): Record<string, string> {
  return { ...b.serviceOwnerLabels, [BINDING_VERSION_LABEL]: 'v1', [TARGET_LABEL]: b.targetKey };
}

/**
 * Labels the slice list selects on. The two target markers are deliberately
 * not selected on, so a slice of the Service without them is seen and
 * reported invalid rather than silently filtered out.
 */
export function endpointSliceSelectorLabels(b: KubernetesBinding): Record<string, string> {
  return { ...b.endpointSliceLabels, [SERVICE_NAME_LABEL]: b.serviceName, [MANAGED_BY_LABEL]: b.endpointSliceManagedBy };
}

/** Labels every selected slice must actually carry. */
export function endpointSliceRequiredLabels(b: KubernetesBinding): Record<string, string> {
  return { ...endpointSliceSelectorLabels(b), [BINDING_VERSION_LABEL]: 'v1', [TARGET_LABEL]: b.targetKey };
}
