// What the provider knows about one target at a moment: whether its Service
// exists, the current slices, and the two sources' latest opaque tokens. The
// tokens are kept as a pair and never compared with each other.
import { createSnapshot, type InstanceSnapshot } from '../snapshot.ts';
import type { KubernetesBinding } from './binding.ts';
import { foldInstances } from './fold.ts';
import type { NormalizedSlice } from './normalize.ts';

export interface SourceState {
  servicePresent: boolean;
  serviceToken: string;
  sliceToken: string;
  slices: Map<string, NormalizedSlice>;
}

/**
 * The snapshot of a state. The slices are folded and checked even when the
 * Service is absent, so bad slice data is never hidden behind a missing one.
 */
export function snapshotOf(state: SourceState, b: KubernetesBinding, localOrder: number): InstanceSnapshot {
  const folded = foldInstances(state.slices.values(), b);
  const instances = state.servicePresent ? folded : [];
  return createSnapshot({
    target: b.target,
    revision: { sourceTokens: [state.serviceToken, state.sliceToken], localOrder },
    state: !state.servicePresent ? 'missing' : instances.length === 0 ? 'empty' : 'populated',
    instances,
  });
}
