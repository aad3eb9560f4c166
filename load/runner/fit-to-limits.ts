// A profile fitted to the limits the target declares (spec.md
// [limits-declared]): the dataset and the phases never ask a legal registry
// for more than it says it takes. Each dimension or parameter the limits
// lower is clamped, and the clamp is recorded in the profile's `fitted` list,
// so the load report says what the run used and why. Fitting is not an
// override: the profile still qualifies a registry whose legal limits forced it.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../contract/canonical-json.js';
import type { RegistryLimits } from '../../contract/records.ts';
import { scaleDataset } from '../lib/dataset.js';
import type { ResolvedProfile } from './scale-contract.ts';

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Room a version body needs besides its manifest: attestation, ids, digests. */
const VERSION_BODY_OVERHEAD = 4096;

/** The most capabilities per version the limits admit: by count, by manifest bytes and by body bytes. */
function capabilitiesPerVersion(profile: ResolvedProfile, limits: RegistryLimits): number {
  let n = Math.min(profile.dataset.capabilities_per_version, limits.max_capabilities_per_version);
  const fits = (per: number) => {
    const d = scaleDataset({
      runId: 'fit',
      dimensions: {
        ...profile.dataset,
        capabilities_per_version: per,
        bindings_per_instance: Math.min(per, profile.dataset.bindings_per_instance),
      },
      sha256Hex,
      leaseUntilMs: 0,
    });
    const v = d.version(1);
    return (
      Buffer.byteLength(canonicalJson(v.manifest)) <= limits.max_manifest_bytes &&
      Buffer.byteLength(JSON.stringify(v)) + VERSION_BODY_OVERHEAD <= limits.max_body_bytes
    );
  };
  while (n > 1 && !fits(n)) n--;
  return n;
}

export function fitProfileToLimits(input: ResolvedProfile, limits: RegistryLimits): ResolvedProfile {
  const profile = structuredClone(input);
  const notes: string[] = [];
  const clamp = (where: string, current: number, fitted: number, why: string): number => {
    if (fitted < current) notes.push(`${where}=${fitted} (was ${current}; fitted to the target's ${why})`);
    return Math.min(current, fitted);
  };
  const d = profile.dataset;
  d.capabilities_per_version = clamp(
    'dataset.capabilities_per_version',
    d.capabilities_per_version,
    capabilitiesPerVersion(profile, limits),
    `max_capabilities_per_version ${limits.max_capabilities_per_version}, max_manifest_bytes ${limits.max_manifest_bytes} and max_body_bytes ${limits.max_body_bytes}`,
  );
  d.bindings_per_instance = clamp(
    'dataset.bindings_per_instance',
    d.bindings_per_instance,
    d.capabilities_per_version,
    'capabilities per version',
  );
  const param = (phase: string, name: string, fitted: number, why: string) => {
    const params = profile.phases.find((p) => p.name === phase)?.params;
    if (params?.[name] !== undefined) params[name] = clamp(`${phase}.${name}`, params[name], fitted, why);
  };
  param('seed', 'batch_items', limits.max_batch_items, `max_batch_items ${limits.max_batch_items}`);
  param('seed', 'max_batch_bytes', limits.max_body_bytes, `max_body_bytes ${limits.max_body_bytes}`);
  for (const phase of ['catalog_walk', 'parallel_catalog', 'sustained_catalog'])
    param(phase, 'page_limit', limits.max_page_size, `max_page_size ${limits.max_page_size}`);
  param('lease_churn', 'batch', limits.max_expiry_batch, `max_expiry_batch ${limits.max_expiry_batch}`);
  // Its batch is both a batch of health reports and the lease-expiry limit.
  param(
    'sustained_lease_churn',
    'batch',
    Math.min(limits.max_expiry_batch, limits.max_batch_items),
    `max_expiry_batch ${limits.max_expiry_batch}`,
  );
  // Concurrent routes are all held at once: no more than the replicas tenant 1's primary capability can use hold.
  // A count the operator set by hand (--set concurrent_routes.routes=N) is theirs to keep.
  const routes = profile.phases.find((p) => p.name === 'concurrent_routes')?.params?.['routes'];
  const setByHand = profile.overrides.some((o) => o.startsWith('concurrent_routes.routes='));
  if (routes !== undefined && !setByHand) {
    const data = scaleDataset({ runId: 'fit', dimensions: d, sha256Hex, leaseUntilMs: 0 });
    // The rollout swaps one of these replicas for its replacement, so the count holds after it too.
    const capacity = data.eligibleReplicas(1, data.primaryCapability(1)).length * d.replica_capacity;
    // (retry_rotation retries at most as many routes as this phase held.)
    param('concurrent_routes', 'routes', capacity, `fleet as fitted: ${capacity} replica units for tenant 1's primary capability`);
  }
  if (notes.length > 0) profile.fitted = [...(profile.fitted ?? []), ...notes];
  return profile;
}
