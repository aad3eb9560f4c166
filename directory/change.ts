// Changes delivered by a watch. Each carries the complete snapshot after the
// change, so a consumer can apply the result rather than trust the delta; the
// delta must nevertheless be exactly the difference to the previous state.
import { compareInstances, createInstance, instancesEqual, isValidInstance, type Instance } from './instance.ts';
import { invalidInput } from './outcome.ts';
import {
  createSnapshot,
  isValidSnapshot,
  revisionsEqual,
  SNAPSHOT_STATES,
  type InstanceSnapshot,
  type Revision,
  type SnapshotState,
} from './snapshot.ts';
import { compareText, deepFreeze, isExactText, isStrictlySorted } from './text.ts';

export const CHANGE_KINDS = ['instances_changed', 'state_changed', 'target_deleted'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface InstanceChange {
  readonly kind: ChangeKind;
  /** Equal to `snapshot.revision`; local order ≥ 1. */
  readonly revision: Revision;
  /** New instances and instances with any changed field; sorted, unique. */
  readonly upserts: readonly Instance[];
  /** Sorted, unique, none present in `snapshot`. */
  readonly deletedInstanceIds: readonly string[];
  /** Only for `state_changed`: the state before (missing or empty). */
  readonly previousState: SnapshotState | null;
  readonly snapshot: InstanceSnapshot;
}

export type ChangeInput = Omit<InstanceChange, 'revision'> & { revision?: Revision };

function payloadValid(c: Record<string, unknown>, snapshot: InstanceSnapshot): boolean {
  const upserts = c['upserts'] as unknown[];
  const deleted = c['deletedInstanceIds'] as unknown[];
  const hasDelta = upserts.length > 0 || deleted.length > 0;
  switch (c['kind']) {
    case 'instances_changed':
      return hasDelta && c['previousState'] === null;
    case 'state_changed': {
      const previous = c['previousState'];
      // Only missing <-> empty: a populated side always has a concrete delta.
      return (
        !hasDelta &&
        (SNAPSHOT_STATES as readonly unknown[]).includes(previous) &&
        previous !== snapshot.state &&
        previous !== 'populated' &&
        snapshot.state !== 'populated'
      );
    }
    case 'target_deleted':
      return !hasDelta && c['previousState'] === null && snapshot.state === 'missing';
    default:
      return false;
  }
}

export function isValidChange(value: unknown): value is InstanceChange {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  const snapshot = c['snapshot'];
  const revision = c['revision'] as Revision;
  if (!isValidSnapshot(snapshot) || !revisionsEqual(revision ?? ({} as Revision), snapshot.revision) || revision.localOrder < 1)
    return false;
  const upserts = c['upserts'];
  const deleted = c['deletedInstanceIds'];
  if (!Array.isArray(upserts) || !Array.isArray(deleted)) return false;
  if (!upserts.every(isValidInstance) || !isStrictlySorted(upserts as Instance[], compareInstances)) return false;
  if (!deleted.every(isExactText) || !isStrictlySorted(deleted as string[], compareText)) return false;
  const inResult = new Map(snapshot.instances.map((i) => [i.id, i]));
  if (!(upserts as Instance[]).every((u) => inResult.has(u.id) && instancesEqual(u, inResult.get(u.id)!))) return false;
  if ((deleted as string[]).some((id) => inResult.has(id))) return false;
  return payloadValid(c, snapshot);
}

export function createChange(input: ChangeInput): InstanceChange {
  if (typeof input !== 'object' || input === null || !Array.isArray(input.upserts) || !Array.isArray(input.deletedInstanceIds))
    throw invalidInput();
  const snapshot = createSnapshot(input.snapshot);
  const candidate = {
    kind: input.kind,
    revision: snapshot.revision,
    upserts: input.upserts.map((u) => createInstance(u)).sort(compareInstances),
    deletedInstanceIds: [...input.deletedInstanceIds].sort(compareText),
    previousState: input.previousState ?? null,
    snapshot,
  };
  if (input.revision !== undefined && !revisionsEqual(input.revision, snapshot.revision)) throw invalidInput();
  if (!isValidChange(candidate)) throw invalidInput();
  return deepFreeze(candidate);
}

/**
 * The change that leads from `previous` to `next`, or null when neither the
 * state nor the instance set differ (a silent source event). `next` carries
 * the change's revision.
 */
export function diffSnapshots(previous: InstanceSnapshot, next: InstanceSnapshot): InstanceChange | null {
  const before = new Map(previous.instances.map((i) => [i.id, i]));
  const after = new Set(next.instances.map((i) => i.id));
  const upserts = next.instances.filter((i) => !before.has(i.id) || !instancesEqual(before.get(i.id)!, i));
  const deletedInstanceIds = previous.instances.filter((i) => !after.has(i.id)).map((i) => i.id);
  if (upserts.length > 0 || deletedInstanceIds.length > 0) {
    return createChange({ kind: 'instances_changed', upserts, deletedInstanceIds, previousState: null, snapshot: next });
  }
  if (previous.state === next.state) return null;
  return createChange({ kind: 'state_changed', upserts: [], deletedInstanceIds: [], previousState: previous.state, snapshot: next });
}
