// The four requests the provider ever makes, and nothing else: it never asks
// for pages, bookmarks, initial events, timeouts or "any" resourceVersion.
import { invalidInput } from '../outcome.ts';
import { compareText } from '../text.ts';
import { endpointSliceSelectorLabels, type KubernetesBinding } from './binding.ts';
import { KubernetesRequest } from './executor.ts';
import { isResourceVersion } from './wire.ts';

const ACCEPT = { accept: 'application/json' };

/** Query keys sorted, so one binding always produces identical URLs. */
function url(b: KubernetesBinding, path: string, query: Record<string, string>): string {
  const params = new URLSearchParams(
    Object.keys(query)
      .sort(compareText)
      .map((k): [string, string] => [k, query[k]!]),
  );
  return `${b.apiOrigin}${path}?${params.toString()}`;
}

function servicePath(b: KubernetesBinding): string {
  return `/api/v1/namespaces/${b.namespace}/services`;
}

function slicePath(b: KubernetesBinding): string {
  return `/apis/discovery.k8s.io/v1/namespaces/${b.namespace}/endpointslices`;
}

function labelSelector(b: KubernetesBinding): string {
  const labels = endpointSliceSelectorLabels(b);
  return Object.keys(labels)
    .sort(compareText)
    .map((k) => `${k}=${labels[k]}`)
    .join(',');
}

export function serviceList(b: KubernetesBinding): KubernetesRequest {
  return new KubernetesRequest(url(b, servicePath(b), { fieldSelector: `metadata.name=${b.serviceName}` }), ACCEPT);
}

export function sliceList(b: KubernetesBinding): KubernetesRequest {
  return new KubernetesRequest(url(b, slicePath(b), { labelSelector: labelSelector(b) }), ACCEPT);
}

function watchQuery(resourceVersion: string): Record<string, string> {
  if (!isResourceVersion(resourceVersion)) throw invalidInput();
  return { resourceVersion, watch: 'true' };
}

export function serviceWatch(b: KubernetesBinding, resourceVersion: string): KubernetesRequest {
  return new KubernetesRequest(
    url(b, servicePath(b), { fieldSelector: `metadata.name=${b.serviceName}`, ...watchQuery(resourceVersion) }),
    ACCEPT,
  );
}

export function sliceWatch(b: KubernetesBinding, resourceVersion: string): KubernetesRequest {
  return new KubernetesRequest(url(b, slicePath(b), { labelSelector: labelSelector(b), ...watchQuery(resourceVersion) }), ACCEPT);
}
