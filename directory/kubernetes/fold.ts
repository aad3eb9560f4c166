// Folding endpoints into instances. Kubernetes may show one pod in several
// slices while it reshards them, so occurrences of one targetRef.uid are
// merged: identical occurrences collapse and extra addresses add up. Any
// disagreement is invalid data; the first occurrence never wins, which also
// makes the result independent of the order slices arrive in.
import { endpointKey, type NetworkEndpoint } from '../endpoint.ts';
import { createInstance, type Instance } from '../instance.ts';
import { invalidInput } from '../outcome.ts';
import { compareText } from '../text.ts';
import { ADDRESS_TYPE_KEY, TARGET_REF_UID_KEY, type KubernetesBinding } from './binding.ts';
import type { NormalizedSlice, RawEndpoint } from './normalize.ts';

interface Folding {
  first: RawEndpoint;
  endpoints: Map<string, NetworkEndpoint>;
}

function sameConditions(a: RawEndpoint, b: RawEndpoint): boolean {
  return a.ready === b.ready && a.serving === b.serving && a.terminating === b.terminating && a.zone === b.zone;
}

export function countEndpoints(slices: Iterable<NormalizedSlice>): number {
  let total = 0;
  for (const s of slices) total += s.endpoints.length;
  return total;
}

export function foldInstances(slices: Iterable<NormalizedSlice>, b: KubernetesBinding): Instance[] {
  const byUid = new Map<string, Folding>();
  const claimedBy = new Map<string, string>();
  for (const slice of slices) {
    for (const raw of slice.endpoints) {
      let folding = byUid.get(raw.uid);
      if (!folding) {
        folding = { first: raw, endpoints: new Map() };
        byUid.set(raw.uid, folding);
      } else if (!sameConditions(folding.first, raw)) {
        throw invalidInput();
      }
      for (const e of raw.endpoints) {
        const key = endpointKey(e);
        const owner = claimedBy.get(key);
        // One network tuple under two pods is a conflict, not a duplicate.
        if (owner !== undefined && owner !== raw.uid) throw invalidInput();
        claimedBy.set(key, raw.uid);
        folding.endpoints.set(key, e);
      }
    }
  }
  return [...byUid.entries()]
    .sort(([a], [b2]) => compareText(a, b2))
    .map(([uid, f]) =>
      createInstance({
        id: uid,
        endpoints: [...f.endpoints.values()],
        ready: f.first.ready,
        serving: f.first.serving,
        terminating: f.first.terminating,
        zone: f.first.zone,
        metadata: { [TARGET_REF_UID_KEY]: uid, [ADDRESS_TYPE_KEY]: b.addressType },
      }),
    );
}
