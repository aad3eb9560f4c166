// Interpretation of the two source objects against a binding. A Service or
// slice that names the target but does not match it exactly (another UID,
// missing markers, a foreign owner) is invalid data, never a new target or
// something to skip.
import { createEndpoint, type NetworkEndpoint } from '../endpoint.ts';
import { invalidInput } from '../outcome.ts';
import { isOpaqueToken } from '../text.ts';
import { endpointSliceRequiredLabels, serviceLabels, type KubernetesBinding } from './binding.ts';
import { isCanonicalAddress } from './names.ts';
import { isObject, isResourceVersion, metadataOf, type JsonObject, type ObjectMeta } from './wire.ts';

function hasLabels(meta: ObjectMeta, required: Record<string, string>): boolean {
  return Object.entries(required).every(([k, v]) => meta.labels[k] === v);
}

/**
 * Checks that a Service object is the bound one. Watch events must carry a
 * resourceVersion; returns it (or undefined for a list item without one).
 */
export function checkService(object: JsonObject, b: KubernetesBinding, fromWatch: boolean): string | undefined {
  const meta = metadataOf(object);
  if (meta.name !== b.serviceName || meta.namespace !== b.namespace || meta.uid !== b.serviceUid) throw invalidInput();
  if (!hasLabels(meta, serviceLabels(b))) throw invalidInput();
  if (fromWatch && !isResourceVersion(meta.resourceVersion)) throw invalidInput();
  if (meta.resourceVersion !== undefined && !isResourceVersion(meta.resourceVersion)) throw invalidInput();
  return meta.resourceVersion as string | undefined;
}

/** One endpoint entry of a slice, before folding by pod UID. */
export interface RawEndpoint {
  uid: string;
  endpoints: NetworkEndpoint[];
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  zone: string | null;
}

export interface NormalizedSlice {
  uid: string;
  resourceVersion: string | undefined;
  endpoints: RawEndpoint[];
}

function ownedByService(refs: unknown, b: KubernetesBinding): boolean {
  if (!Array.isArray(refs)) return false;
  const services = refs.filter((r) => isObject(r) && r['kind'] === 'Service');
  return services.length > 0 && services.every((r) => r['apiVersion'] === 'v1' && r['name'] === b.serviceName && r['uid'] === b.serviceUid);
}

/** Checks shared by list items, watch upserts and watch deletes. */
function checkSliceIdentity(object: JsonObject, b: KubernetesBinding, fromWatch: boolean, isDelete: boolean): ObjectMeta {
  const meta = metadataOf(object);
  if (!isOpaqueToken(meta.name) || meta.namespace !== b.namespace || !isOpaqueToken(meta.uid)) throw invalidInput();
  if (fromWatch && !isResourceVersion(meta.resourceVersion)) throw invalidInput();
  if (meta.resourceVersion !== undefined && !isResourceVersion(meta.resourceVersion)) throw invalidInput();
  if (!hasLabels(meta, endpointSliceRequiredLabels(b))) throw invalidInput();
  const addressType = object['addressType'];
  if (addressType === undefined ? !isDelete : addressType !== b.addressType) throw invalidInput();
  if (!ownedByService(meta.ownerReferences, b)) throw invalidInput();
  return meta;
}

/** Kubernetes discovery/v1: an absent ready or serving means true, an absent terminating false. */
export function resolveConditions(conditions: unknown): { ready: boolean; serving: boolean; terminating: boolean } {
  if (conditions === undefined || conditions === null) return { ready: true, serving: true, terminating: false };
  if (!isObject(conditions)) throw invalidInput();
  const read = (key: string, absent: boolean): boolean => {
    const v = conditions[key];
    if (v === undefined || v === null) return absent;
    if (typeof v !== 'boolean') throw invalidInput();
    return v;
  };
  return { ready: read('ready', true), serving: read('serving', true), terminating: read('terminating', false) };
}

function boundPort(ports: unknown, b: KubernetesBinding): number {
  if (!Array.isArray(ports)) throw invalidInput();
  // Only entries that state both name and protocol are considered.
  const matches = ports.filter((p) => isObject(p) && p['name'] === b.portName && p['protocol'] === b.protocol);
  if (matches.length !== 1) throw invalidInput();
  const port = (matches[0] as JsonObject)['port'];
  if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) throw invalidInput();
  return port as number;
}

function normalizeEndpoint(raw: unknown, b: KubernetesBinding, port: number): RawEndpoint {
  if (!isObject(raw)) throw invalidInput();
  const ref = raw['targetRef'];
  if (!isObject(ref) || !isOpaqueToken(ref['uid'])) throw invalidInput();
  const addresses = raw['addresses'];
  if (!Array.isArray(addresses) || addresses.length === 0) throw invalidInput();
  if (!addresses.every((a) => isCanonicalAddress(a, b.addressType))) throw invalidInput();
  const zone = raw['zone'];
  if (zone !== undefined && zone !== null && !isOpaqueToken(zone)) throw invalidInput();
  return {
    uid: ref['uid'],
    endpoints: (addresses as string[]).map((address) =>
      createEndpoint({ addressType: b.addressType, address, portName: b.portName, port, protocol: b.protocol }),
    ),
    ...resolveConditions(raw['conditions']),
    zone: (zone as string | undefined) ?? null,
  };
}

/** A slice from a list or an ADDED/MODIFIED event, with its endpoints. */
export function normalizeSlice(object: JsonObject, b: KubernetesBinding, fromWatch: boolean): NormalizedSlice {
  const meta = checkSliceIdentity(object, b, fromWatch, false);
  const endpoints = object['endpoints'] ?? [];
  if (!Array.isArray(endpoints)) throw invalidInput();
  // A slice without endpoints (the controller's placeholder) needs no port.
  const port = endpoints.length === 0 ? 0 : boundPort(object['ports'], b);
  return {
    uid: meta.uid as string,
    resourceVersion: meta.resourceVersion as string | undefined,
    endpoints: endpoints.map((e) => normalizeEndpoint(e, b, port)),
  };
}

/** A DELETED slice: identity checks only. */
export function deletedSlice(object: JsonObject, b: KubernetesBinding): { uid: string; resourceVersion: string } {
  const meta = checkSliceIdentity(object, b, true, true);
  return { uid: meta.uid as string, resourceVersion: meta.resourceVersion as string };
}
