// Kubernetes objects for tests: a valid binding and the Service and
// EndpointSlice documents that match it, with overrides for breaking them.
import { referenceTarget } from '../../../test/kit/fixtures.ts';
import {
  createBinding,
  endpointSliceRequiredLabels,
  serviceLabels,
  type KubernetesBinding,
  type KubernetesBindingInput,
} from '../../binding.ts';

export const SERVICE_UID = 'svc-uid-1';

export function bindingInput(over: Partial<KubernetesBindingInput> = {}): KubernetesBindingInput {
  return {
    version: 'v1',
    target: referenceTarget(),
    apiOrigin: 'https://kube.example:6443',
    namespace: 'connectors',
    serviceName: 'alpha',
    serviceUid: SERVICE_UID,
    endpointSliceManagedBy: 'endpointslice-controller.k8s.io',
    serviceOwnerLabels: { 'app.kubernetes.io/part-of': 'fleetproof' },
    endpointSliceLabels: { 'app.kubernetes.io/part-of': 'fleetproof' },
    addressType: 'IPv4',
    portName: 'http',
    protocol: 'TCP',
    bounds: { listResponseBytes: 1 << 20, watchEnvelopeBytes: 64 * 1024, endpointSliceCount: 16, endpointCount: 64, pendingChanges: 16 },
    ...over,
  };
}

export function testBinding(over: Partial<KubernetesBindingInput> = {}): KubernetesBinding {
  return createBinding(bindingInput(over));
}

export interface ServiceOptions {
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
}

export function serviceObject(b: KubernetesBinding, o: ServiceOptions = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: b.serviceName,
      namespace: b.namespace,
      uid: o.uid ?? b.serviceUid,
      ...(o.resourceVersion !== undefined ? { resourceVersion: o.resourceVersion } : {}),
      labels: o.labels ?? serviceLabels(b),
    },
    spec: { ports: [{ name: b.portName, port: 80, protocol: 'TCP', targetPort: 8080 }] },
  };
}

export interface PodEndpoint {
  uid: string;
  addresses: string[];
  conditions?: { ready?: boolean | null; serving?: boolean | null; terminating?: boolean | null } | null;
  zone?: string;
}

export interface SliceOptions {
  name: string;
  uid?: string;
  resourceVersion?: string;
  endpoints: PodEndpoint[];
  port?: number;
  ports?: unknown[];
  labels?: Record<string, string>;
  addressType?: string | null;
  ownerUid?: string;
}

export function sliceObject(b: KubernetesBinding, o: SliceOptions): Record<string, unknown> {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: o.name,
      namespace: b.namespace,
      uid: o.uid ?? `uid-${o.name}`,
      ...(o.resourceVersion !== undefined ? { resourceVersion: o.resourceVersion } : {}),
      labels: o.labels ?? endpointSliceRequiredLabels(b),
      ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: b.serviceName, uid: o.ownerUid ?? b.serviceUid, controller: true }],
    },
    ...(o.addressType === null ? {} : { addressType: o.addressType ?? b.addressType }),
    ports: o.ports ?? [{ name: b.portName, port: o.port ?? 8080, protocol: 'TCP' }],
    endpoints: o.endpoints.map((e) => ({
      addresses: e.addresses,
      ...(e.conditions === undefined
        ? { conditions: { ready: true, serving: true, terminating: false } }
        : e.conditions === null
          ? {}
          : { conditions: e.conditions }),
      targetRef: { kind: 'Pod', namespace: b.namespace, name: `pod-${e.uid}`, uid: e.uid },
      ...(e.zone !== undefined ? { zone: e.zone } : {}),
      nodeName: 'node-1',
    })),
  };
}

export function listOf(items: unknown[], resourceVersion: string, kind = 'List'): Record<string, unknown> {
  return { apiVersion: 'v1', kind, metadata: { resourceVersion }, items };
}

export function statusObject(code: number): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'secret-bearing provider text', reason: 'Expired', code };
}
