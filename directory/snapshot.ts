// Revisions and snapshots. A revision keeps the source's opaque tokens as
// they arrived (for Kubernetes the pair [Service RV, EndpointSlice RV]) and a
// local order that only means something inside one observation.
import { compareInstances, createInstance, instancesEqual, isValidInstance, type Instance } from './instance.ts';
import { invalidInput } from './outcome.ts';
import { createTarget, isValidTarget, targetsEqual, type DirectoryTarget } from './target.ts';
import { deepFreeze, isOpaqueToken, isStrictlySorted } from './text.ts';

export const SNAPSHOT_STATES = ['missing', 'empty', 'populated'] as const;
export type SnapshotState = (typeof SNAPSHOT_STATES)[number];

const MAX_TOKEN_CHARS = 1024;

export interface Revision {
  /** Never parsed, ordered or compared by the directory. */
  readonly sourceTokens: readonly string[];
  /** 0 for a snapshot; each change of one observation adds exactly 1. */
  readonly localOrder: number;
}

export function isValidRevision(value: unknown): value is Revision {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const tokens = r['sourceTokens'];
  return (
    Array.isArray(tokens) &&
    tokens.length > 0 &&
    tokens.every((t) => isOpaqueToken(t, MAX_TOKEN_CHARS)) &&
    Number.isSafeInteger(r['localOrder']) &&
    (r['localOrder'] as number) >= 0
  );
}

export function createRevision(sourceTokens: readonly string[], localOrder: number): Revision {
  const candidate = { sourceTokens: Array.isArray(sourceTokens) ? [...sourceTokens] : sourceTokens, localOrder };
  if (!isValidRevision(candidate)) throw invalidInput();
  return deepFreeze(candidate);
}

export function revisionsEqual(a: Revision, b: Revision): boolean {
  return (
    a.localOrder === b.localOrder &&
    a.sourceTokens.length === b.sourceTokens.length &&
    a.sourceTokens.every((t, i) => t === b.sourceTokens[i])
  );
}

export interface InstanceSnapshot {
  readonly target: DirectoryTarget;
  readonly revision: Revision;
  readonly state: SnapshotState;
  /** Sorted by id, unique; empty unless the state is `populated`. */
  readonly instances: readonly Instance[];
}

export function isValidSnapshot(value: unknown): value is InstanceSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  const instances = s['instances'];
  if (!isValidTarget(s['target']) || !isValidRevision(s['revision']) || !Array.isArray(instances)) return false;
  if (!instances.every(isValidInstance) || !isStrictlySorted(instances as Instance[], compareInstances)) return false;
  switch (s['state']) {
    case 'missing':
    case 'empty':
      return instances.length === 0;
    case 'populated':
      return instances.length > 0;
    default:
      return false;
  }
}

export interface SnapshotInput {
  target: DirectoryTarget;
  revision: Revision;
  state: SnapshotState;
  instances: readonly Instance[];
}

export function createSnapshot(input: SnapshotInput): InstanceSnapshot {
  if (typeof input !== 'object' || input === null || !Array.isArray(input.instances)) throw invalidInput();
  const candidate = {
    target: createTarget(input.target),
    revision: createRevision(input.revision?.sourceTokens, input.revision?.localOrder),
    state: input.state,
    instances: input.instances.map((i) => createInstance(i)).sort(compareInstances),
  };
  if (!isValidSnapshot(candidate)) throw invalidInput();
  return deepFreeze(candidate);
}

export function snapshotsEqual(a: InstanceSnapshot, b: InstanceSnapshot): boolean {
  return (
    targetsEqual(a.target, b.target) &&
    revisionsEqual(a.revision, b.revision) &&
    a.state === b.state &&
    a.instances.length === b.instances.length &&
    a.instances.every((inst, i) => instancesEqual(inst, b.instances[i]!))
  );
}

/** The same snapshot at another local order (used to rebase onto an observation). */
export function withLocalOrder(snapshot: InstanceSnapshot, localOrder: number): InstanceSnapshot {
  return createSnapshot({ ...snapshot, revision: { sourceTokens: snapshot.revision.sourceTokens, localOrder } });
}
