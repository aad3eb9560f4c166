// One instance (for Kubernetes: one pod) of the target, with its lifecycle
// state derived from the source's three conditions. The derivation is the
// only interpretation the directory makes; the resolved booleans stay visible
// so a consumer can check it.
import { compareEndpoints, createEndpoint, isValidEndpoint, type NetworkEndpoint } from './endpoint.ts';
import { invalidInput } from './outcome.ts';
import { compareText, deepFreeze, isExactText, isStrictlySorted } from './text.ts';

export const LIFECYCLE_STATES = ['ready', 'draining', 'unavailable'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

/**
 * The truth table: terminating wins (draining while still serving, else
 * unavailable); otherwise ready needs both serving and ready.
 */
export function deriveLifecycle(ready: boolean, serving: boolean, terminating: boolean): LifecycleState {
  if (terminating) return serving ? 'draining' : 'unavailable';
  return serving && ready ? 'ready' : 'unavailable';
}

export interface Instance {
  readonly id: string;
  /** At least one, sorted, no duplicates. */
  readonly endpoints: readonly NetworkEndpoint[];
  readonly ready: boolean;
  readonly serving: boolean;
  readonly terminating: boolean;
  readonly state: LifecycleState;
  /** null when the source gave none; never made up. */
  readonly zone: string | null;
  /** null when absent; an explicit 0 stays 0. */
  readonly weight: number | null;
  readonly metadata: Readonly<Record<string, string>>;
}

export interface InstanceInput {
  id: string;
  endpoints: readonly NetworkEndpoint[];
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  /** Optional; when given it must agree with the derived state. */
  state?: LifecycleState;
  zone?: string | null;
  weight?: number | null;
  metadata?: Readonly<Record<string, string>>;
}

function metadataValid(metadata: unknown): boolean {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return false;
  return Object.entries(metadata).every(([k, v]) => isExactText(k) && isExactText(v));
}

/** Checks a stored instance as it is now, catching any later corruption. */
export function isValidInstance(value: unknown): value is Instance {
  if (typeof value !== 'object' || value === null) return false;
  const i = value as Record<string, unknown>;
  const endpoints = i['endpoints'];
  if (!isExactText(i['id']) || !Array.isArray(endpoints) || endpoints.length === 0) return false;
  if (!endpoints.every(isValidEndpoint) || !isStrictlySorted(endpoints as NetworkEndpoint[], compareEndpoints)) return false;
  if (typeof i['ready'] !== 'boolean' || typeof i['serving'] !== 'boolean' || typeof i['terminating'] !== 'boolean') return false;
  if (i['state'] !== deriveLifecycle(i['ready'], i['serving'], i['terminating'])) return false;
  if (i['zone'] !== null && !isExactText(i['zone'])) return false;
  if (i['weight'] !== null && !(Number.isSafeInteger(i['weight']) && (i['weight'] as number) >= 0)) return false;
  return metadataValid(i['metadata']);
}

export function createInstance(input: InstanceInput): Instance {
  if (typeof input !== 'object' || input === null || !Array.isArray(input.endpoints)) throw invalidInput();
  const endpoints = input.endpoints.map(createEndpoint).sort(compareEndpoints);
  const state = deriveLifecycle(input.ready, input.serving, input.terminating);
  if (input.state !== undefined && input.state !== state) throw invalidInput();
  const candidate = {
    id: input.id,
    endpoints,
    ready: input.ready,
    serving: input.serving,
    terminating: input.terminating,
    state,
    zone: input.zone ?? null,
    weight: input.weight ?? null,
    metadata: metadataValid(input.metadata ?? {}) ? { ...(input.metadata ?? {}) } : null,
  };
  if (!isValidInstance(candidate)) throw invalidInput();
  return deepFreeze(candidate);
}

export function compareInstances(a: Instance, b: Instance): number {
  return compareText(a.id, b.id);
}

export function instancesEqual(a: Instance, b: Instance): boolean {
  if (a.id !== b.id || a.ready !== b.ready || a.serving !== b.serving || a.terminating !== b.terminating) return false;
  if (a.state !== b.state || a.zone !== b.zone || a.weight !== b.weight) return false;
  if (a.endpoints.length !== b.endpoints.length || a.endpoints.some((e, i) => compareEndpoints(e, b.endpoints[i]!) !== 0)) return false;
  const ka = Object.keys(a.metadata);
  return ka.length === Object.keys(b.metadata).length && ka.every((k) => Object.hasOwn(b.metadata, k) && a.metadata[k] === b.metadata[k]);
}
