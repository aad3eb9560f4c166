// What the phases change in the fleet, derived from the plan alone so that
// every VU (and every k6 instance of a distributed run) computes the same
// answer without sharing state: which replica the rollout drains and adds,
// which replicas lease churn takes offline, which replicas the sustained
// phases heartbeat and which they churn. Nothing here imports k6, so the
// runner checks a profile with the same functions before a run starts.

/** What the facts read of a run plan: its id and its resolved profile. @typedef {Pick<import('./plan.js').RunPlan, 'run_id' | 'profile'>} PlanFacts */

/** @param {number} n @param {number} width */
const pad = (n, width) => String(n).padStart(width, '0');

/**
 * The parameters of a phase, or null when the profile does not run it.
 * @param {Pick<PlanFacts, 'profile'>} plan
 * @param {string} name
 * @returns {Record<string, number> | null}
 */
export function phaseParams(plan, name) {
  const phase = plan.profile.phases.find((p) => p.name === name);
  return phase ? phase.params || {} : null;
}

/**
 * @param {PlanFacts} plan
 * @param {string} name
 */
export function runsPhase(plan, name) {
  return phaseParams(plan, name) !== null;
}

/**
 * The rollout moves the last connector type's instance to a new version.
 * @param {PlanFacts} plan
 * @param {ReturnType<typeof import('./dataset.js').scaleDataset>} data
 */
export function rolloutIds(plan, data) {
  const t = data.dimensions.connector_types;
  return {
    type: t,
    instance: data.ids.instance(t),
    oldReplica: data.ids.replica(t),
    newReplica: `crepl_${plan.run_id}_rollout_${pad(t, 8)}`,
    newVersion: `cver_${plan.run_id}_rollout_${pad(t, 6)}`,
  };
}

/**
 * Replicas eligible for tenant k's capability once the rollout has run: the
 * drained replica leaves, its replacement joins.
 * @param {PlanFacts} plan
 * @param {ReturnType<typeof import('./dataset.js').scaleDataset>} data
 * @param {number} k
 * @param {string} capabilityId
 */
export function eligibleAfterRollout(plan, data, k, capabilityId) {
  const seeded = data.eligibleReplicas(k, capabilityId);
  if (!runsPhase(plan, 'version_rollout')) return seeded;
  const r = rolloutIds(plan, data);
  return seeded.includes(r.oldReplica) ? [...seeded.filter((id) => id !== r.oldReplica), r.newReplica] : seeded;
}

/**
 * The replicas the qualification's lease churn expires: the first N ready
 * replicas of the run ordered by id (the drained one is not ready), with the
 * health revision each holds before the churn.
 * @param {PlanFacts} plan
 * @param {ReturnType<typeof import('./dataset.js').scaleDataset>} data
 * @returns {{ id: string, revision: number }[]}
 */
export function qualificationChurn(plan, data) {
  const params = phaseParams(plan, 'lease_churn');
  if (!params) return [];
  const rollout = runsPhase(plan, 'version_rollout') ? rolloutIds(plan, data) : null;
  const want = Math.max(0, params['replicas'] || 0);
  /** @type {{ id: string, revision: number }[]} */
  const out = [];
  // Zero-padded numeric ids sort before the rollout replica's id.
  for (let i = 1; i <= data.dimensions.instances && out.length < want; i++) {
    const id = data.ids.replica(i);
    if (!rollout || id !== rollout.oldReplica) out.push({ id, revision: 1 });
  }
  if (rollout && out.length < want) out.push({ id: rollout.newReplica, revision: 2 });
  return out;
}

/**
 * Replicas the sustained phases may change, split by tenant: replicas of the
 * routing tenants are heartbeated (and serve the routes), the others are
 * churned. Replicas the qualification phases already changed are left out,
 * so every replica here is still at health revision 1.
 * @param {PlanFacts} plan
 * @param {ReturnType<typeof import('./dataset.js').scaleDataset>} data
 */
export function sustainedPools(plan, data) {
  const routing = routingTenants(plan, data);
  const touched = new Set(qualificationChurn(plan, data).map((r) => r.id));
  if (runsPhase(plan, 'version_rollout')) touched.add(rolloutIds(plan, data).oldReplica);
  /** @type {string[]} */
  const heartbeat = [];
  /** @type {string[]} */
  const churn = [];
  for (let i = 1; i <= data.dimensions.instances; i++) {
    const id = data.ids.replica(i);
    if (touched.has(id)) continue;
    (data.tenantOf(i) <= routing ? heartbeat : churn).push(id);
  }
  return { heartbeat, churn };
}

/**
 * A part's share of a pool: the replicas whose place in the pool falls in
 * the part's execution segment (from and to, 0 and 1 for a run not split).
 * The parts of a distributed run write health reports to disjoint replicas,
 * so no part can send a revision another part has already passed, whatever
 * order the parts run in; the shares of every part make up the pool.
 * @param {string[]} pool
 * @param {readonly [number, number]} segment
 * @returns {string[]}
 */
export function shareOf(pool, segment) {
  return pool.slice(Math.floor(segment[0] * pool.length), Math.floor(segment[1] * pool.length));
}

/**
 * The health revision of report k to one replica, from a scenario that
 * started at `startMs` (Unix milliseconds, the same for every VU of the
 * part): above the revisions the dataset seeds and the qualification
 * phases write, strictly increasing with k, and above any an earlier run of
 * the same part sent, which started earlier and sent a replica fewer reports
 * than milliseconds passed. Below 2^53 for millennia ([wire-integers]).
 * @param {number} startMs
 * @param {number} k
 */
export function timedRevision(startMs, k) {
  return startMs + k;
}

/**
 * The replicas sustained churn iteration n expires, `size` at a time: slice
 * n mod S of the churn share's S slices, in round ⌊n / S⌋. A round reports
 * each replica ready with a lapsed lease (one revision) and lease expiry
 * takes it offline (one more), so round r finds it at the revision round
 * r - 1 left, timedRevision(startMs, 2r), and reports one above; a share
 * that is used up starts over rather than leave the phase's later
 * iterations with nothing to send.
 * @param {string[]} share
 * @param {number} n
 * @param {number} size
 * @param {number} startMs
 * @returns {{ id: string, revision: number }[]}
 */
export function churnSlice(share, n, size, startMs) {
  const slices = Math.ceil(share.length / size);
  if (slices === 0) return [];
  const first = (n % slices) * size;
  const revision = timedRevision(startMs, 2 * Math.floor(n / slices));
  return share.slice(first, first + size).map((id) => ({ id, revision }));
}

/**
 * How many tenants (1..n) the sustained (or breakpoint) routes use.
 * @param {PlanFacts} plan
 * @param {ReturnType<typeof import('./dataset.js').scaleDataset>} data
 * @param {string} [phase]
 */
export function routingTenants(plan, data, phase = 'sustained_routes') {
  const params = phaseParams(plan, phase);
  const wanted = params ? params['routing_tenants'] || 1 : Math.ceil(data.dimensions.tenants / 2);
  return Math.max(1, Math.min(data.dimensions.tenants, wanted));
}
