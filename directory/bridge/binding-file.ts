// The bridge's binding file (JSON or YAML): the exact target, the Kubernetes
// binding and the replica template, in snake_case like the registry's wire
// format. Every field is required and unknown fields are refused, so a typo
// is an error at start-up rather than a silently ignored setting.
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { PrincipalKind } from '../../contract/records.ts';
import { createBinding, type KubernetesBinding } from '../kubernetes/binding.ts';
import { createTarget, isCanonicalOrigin } from '../target.ts';
import { DirectoryError } from '../outcome.ts';
import { checkTemplate, type ReplicaTemplate } from './replica-template.ts';
import type { Backoff } from './timers.ts';
import { FleetproofError } from '../../client/errors.ts';

export const BINDING_FILE_VERSION = 'fleetproof-directory/v1';

export interface BridgeBinding {
  kubernetes: KubernetesBinding;
  template: ReplicaTemplate;
  backoff: Backoff | undefined;
}

export class BindingFileError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_BINDING_FILE', message, options);
  }
}

type Doc = Record<string, unknown>;

/** Reads an object with exactly the given required (and optional) keys. */
function section(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Doc {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BindingFileError(`${path} must be an object`);
  const doc = value as Doc;
  for (const key of Object.keys(doc))
    if (!required.includes(key) && !optional.includes(key)) throw new BindingFileError(`${path}.${key} is not a known field`);
  for (const key of required) if (doc[key] === undefined) throw new BindingFileError(`${path}.${key} is required`);
  return doc;
}

function text(doc: Doc, key: string, path: string): string {
  const v = doc[key];
  if (typeof v !== 'string') throw new BindingFileError(`${path}.${key} must be a string`);
  return v;
}

function integer(doc: Doc, key: string, path: string): number {
  const v = doc[key];
  if (!Number.isSafeInteger(v)) throw new BindingFileError(`${path}.${key} must be an integer`);
  return v as number;
}

function labels(doc: Doc, key: string, path: string): Record<string, string> {
  const v = doc[key];
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new BindingFileError(`${path}.${key} must be a map of label keys to values`);
  for (const [k, value] of Object.entries(v))
    if (typeof value !== 'string') throw new BindingFileError(`${path}.${key}.${k} must be a string`);
  return v as Record<string, string>;
}

export interface ParseOptions {
  /** Accept a kubernetes.api_origin that differs from `apiOrigin` (for label printing). */
  ignoreApiOrigin?: boolean;
}

/** Parses a binding file's document; `apiOrigin` comes from the command line. */
export function parseBindingFile(value: unknown, apiOrigin: string, options: ParseOptions = {}): BridgeBinding {
  const root = section(value, 'binding', ['version', 'target', 'kubernetes', 'replica'], ['backoff']);
  if (root['version'] !== BINDING_FILE_VERSION) throw new BindingFileError(`binding.version must be ${BINDING_FILE_VERSION}`);
  if (!isCanonicalOrigin(apiOrigin))
    throw new BindingFileError(
      `the Kubernetes API must be a canonical origin such as https://kube.example:6443 (no path, no trailing slash)`,
    );

  const t = section(root['target'], 'target', ['instance_id', 'version_id', 'manifest_digest', 'canonical_endpoint', 'audience']);
  const k = section(
    root['kubernetes'],
    'kubernetes',
    [
      'namespace',
      'service_name',
      'service_uid',
      'endpoint_slice_managed_by',
      'service_owner_labels',
      'endpoint_slice_labels',
      'address_type',
      'port_name',
      'protocol',
      'bounds',
    ],
    ['api_origin'],
  );
  if (k['api_origin'] !== undefined && k['api_origin'] !== apiOrigin && !options.ignoreApiOrigin)
    throw new BindingFileError('kubernetes.api_origin differs from --kube-api');
  const bounds = section(k['bounds'], 'kubernetes.bounds', [
    'list_response_bytes',
    'watch_envelope_bytes',
    'endpoint_slice_count',
    'endpoint_count',
    'pending_changes',
  ]);
  const r = section(root['replica'], 'replica', [
    'id_pattern',
    'endpoint_pattern',
    'peer_principal_id_pattern',
    'peer_principal_kind',
    'peer_did_pattern',
    'trust_domain',
    'transport_profile',
    'topology',
    'capacity',
    'lease_ttl_ms',
  ]);
  const topology = section(r['topology'], 'replica.topology', ['region', 'zone', 'capacity_class']);

  let kubernetes: KubernetesBinding;
  try {
    const target = createTarget({
      instanceId: text(t, 'instance_id', 'target'),
      versionId: text(t, 'version_id', 'target'),
      manifestDigest: text(t, 'manifest_digest', 'target'),
      canonicalEndpoint: text(t, 'canonical_endpoint', 'target'),
      audience: text(t, 'audience', 'target'),
    });
    kubernetes = createBinding({
      version: 'v1',
      target,
      apiOrigin,
      namespace: text(k, 'namespace', 'kubernetes'),
      serviceName: text(k, 'service_name', 'kubernetes'),
      serviceUid: text(k, 'service_uid', 'kubernetes'),
      endpointSliceManagedBy: text(k, 'endpoint_slice_managed_by', 'kubernetes'),
      serviceOwnerLabels: labels(k, 'service_owner_labels', 'kubernetes'),
      endpointSliceLabels: labels(k, 'endpoint_slice_labels', 'kubernetes'),
      addressType: text(k, 'address_type', 'kubernetes') as 'IPv4',
      portName: text(k, 'port_name', 'kubernetes'),
      protocol: text(k, 'protocol', 'kubernetes') as 'TCP',
      bounds: {
        listResponseBytes: integer(bounds, 'list_response_bytes', 'kubernetes.bounds'),
        watchEnvelopeBytes: integer(bounds, 'watch_envelope_bytes', 'kubernetes.bounds'),
        endpointSliceCount: integer(bounds, 'endpoint_slice_count', 'kubernetes.bounds'),
        endpointCount: integer(bounds, 'endpoint_count', 'kubernetes.bounds'),
        pendingChanges: integer(bounds, 'pending_changes', 'kubernetes.bounds'),
      },
    });
  } catch (err) {
    // The directory's errors say only "invalid", by design; say where to look.
    if (DirectoryError.is(err))
      throw new BindingFileError(
        'target or kubernetes section is not a valid exact target and Binding v1 (check canonical endpoint, audience, names, labels, bounds > 0)',
      );
    throw err;
  }

  const template: ReplicaTemplate = {
    replicaIdPattern: text(r, 'id_pattern', 'replica'),
    endpointPattern: text(r, 'endpoint_pattern', 'replica'),
    peerPrincipalIdPattern: text(r, 'peer_principal_id_pattern', 'replica'),
    peerPrincipalKind: text(r, 'peer_principal_kind', 'replica') as PrincipalKind,
    peerDidPattern: text(r, 'peer_did_pattern', 'replica'),
    trustDomain: text(r, 'trust_domain', 'replica'),
    transportProfile: text(r, 'transport_profile', 'replica'),
    topology: {
      region: text(topology, 'region', 'replica.topology'),
      zone: text(topology, 'zone', 'replica.topology'),
      capacityClass: text(topology, 'capacity_class', 'replica.topology'),
    },
    capacity: integer(r, 'capacity', 'replica'),
    leaseTtlMs: integer(r, 'lease_ttl_ms', 'replica'),
  };
  try {
    checkTemplate(template, kubernetes.target);
  } catch (err) {
    throw new BindingFileError(`replica template: ${(err as Error).message}`);
  }

  let backoff: Backoff | undefined;
  if (root['backoff'] !== undefined) {
    const b = section(root['backoff'], 'backoff', ['initial_ms', 'max_ms']);
    backoff = { initialMs: integer(b, 'initial_ms', 'backoff'), maxMs: integer(b, 'max_ms', 'backoff') };
    if (backoff.initialMs <= 0 || backoff.maxMs < backoff.initialMs) throw new BindingFileError('backoff needs 0 < initial_ms <= max_ms');
  }
  return { kubernetes, template, backoff };
}

export async function loadBindingFile(path: string, apiOrigin: string, options: ParseOptions = {}): Promise<BridgeBinding> {
  let textContent: string;
  try {
    textContent = await readFile(path, 'utf8');
  } catch (err) {
    throw new BindingFileError(`cannot read binding file ${path}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    // YAML is a superset of JSON, so one parser reads both.
    doc = parseYaml(textContent);
  } catch (err) {
    throw new BindingFileError(`binding file ${path} is neither JSON nor YAML: ${(err as Error).message}`);
  }
  return parseBindingFile(doc, apiOrigin, options);
}
