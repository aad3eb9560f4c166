// Phase `lease_churn`: `replicas` ready replicas of the run (the first by
// id) renew their lease, then report it expired; lease expiry is called with
// limit `batch` until a call returns fewer. Exactly those replicas are
// offline afterwards; sustained lease churn does the same per iteration.
import { qualificationChurn } from '../lib/fleet-facts.js';
import { bodyLimitOf, bySize } from '../lib/batches.js';
import { journal } from '../lib/journal.js';
import { expiredReplicas } from '../lib/metrics.js';
import { batchResults, bodyOf, expectResponse, indeterminate, itemIndeterminate, registryClient, send, sendAll } from '../lib/registry.js';
import { verify } from '../lib/verify.js';

const PHASE = 'lease_churn';
const HOUR_MS = 3600 * 1000;
/**
 * How far in the past, on this machine's clock, a lapsed lease is stamped:
 * twice the clock difference preflight allows a load target
 * (client/preflight.ts CLOCK_BOUND_MS.leases, 30 s), so it lies in the
 * past on the target's clock too, and lease expiry takes it.
 */
const LAPSED_MS = 60 * 1000;

/**
 * Health reports for the replicas, in batches of at most 1000 items (the
 * smallest legal max_batch_items) within the target's body limit. Returns
 * the replicas whose report was applied, and those whose report got an
 * indeterminate answer (no answer, STORAGE_UNAVAILABLE for the batch or the
 * item) and so may or may not have been ([failure-indeterminate]).
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof registryClient>} client
 * @param {{ id: string, revision: number }[]} replicas
 * @param {(r: { id: string, revision: number }) => import('../../contract/records.ts').HealthReport} report
 */
async function reportHealth(plan, client, replicas, report) {
  const items = replicas.map((r) => ({ op: 'report_health', id: r.id, report: report(r) }));
  const chunks = bySize(items, bodyLimitOf(plan), 1000);
  /** @type {string[]} */
  const applied = [];
  /** @type {string[]} */
  const unknown = [];
  (
    await sendAll(
      chunks.map((chunk) => client.batch(/** @type {any} */ (chunk))),
      4,
    )
  ).forEach((res, c) => {
    const ids = /** @type {{ id: string }[]} */ (chunks[c]).map((item) => item.id);
    if (indeterminate(res)) unknown.push(...ids);
    for (const x of batchResults(res)) {
      const id = /** @type {string} */ (ids[x.index]);
      if (x.outcome === 'applied') applied.push(id);
      else if (itemIndeterminate(x)) unknown.push(id);
    }
  });
  return { applied, unknown };
}

/**
 * Calls lease expiry until a call expires fewer than `limit`. Returns the
 * total, and whether it finished so: a call that got any other answer ends
 * the loop with lapsed replicas perhaps still not offline.
 * @param {ReturnType<typeof registryClient>} client
 * @param {number} limit
 */
async function expireUntilDone(client, limit) {
  let total = 0;
  for (let calls = 0; calls < 100000; calls++) {
    const res = await send(client.expire(limit));
    if (!expectResponse(res, ['200'])) return { total, done: false };
    const expired = bodyOf(res).expired;
    total += expired;
    if (expired < limit) return { total, done: true };
  }
  return { total, done: false };
}

/**
 * Reports the replicas' leases expired and calls lease expiry; journals
 * them first as replicas that may go offline (a cut or a lost answer may
 * stop anywhere), then those that must be: the lapse applied and expiry
 * finished. Returns how many expiry took offline.
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof registryClient>} client
 * @param {string} phase
 * @param {{ id: string, revision: number }[]} replicas
 * @param {{ revision: number, capacity: number, batch: number, check: string }} how `revision` is added to each replica's
 */
export async function lapseAndExpire(plan, client, phase, replicas, how) {
  journal({ k: 'may_go_offline', phase, ids: replicas.map((r) => r.id) });
  const lapse = await reportHealth(plan, client, replicas, (r) => ({
    health_revision: r.revision + how.revision,
    status: 'ready',
    lease_expires_at: new Date(Date.now() - LAPSED_MS).toISOString(),
    capacity: how.capacity,
  }));
  verify(
    phase,
    how.check,
    replicas.length > 0 && lapse.applied.length === replicas.length,
    replicas.length > 0
      ? `${lapse.applied.length} of ${replicas.length} applied, ${lapse.unknown.length} without an answer`
      : 'no replica to churn',
  );
  const expiry = await expireUntilDone(client, how.batch);
  expiredReplicas.add(expiry.total, { phase });
  if (expiry.done) journal({ k: 'offline', phase, ids: lapse.applied });
  return expiry.total;
}

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export async function leaseChurn(plan, data, params) {
  const client = registryClient(plan, PHASE);
  const chosen = qualificationChurn(plan, data);
  const capacity = data.dimensions.replica_capacity;
  const stamp = (/** @type {number} */ ms) => new Date(ms).toISOString();
  const renewed = await reportHealth(plan, client, chosen, (r) => ({
    health_revision: r.revision + 1,
    status: 'ready',
    lease_expires_at: stamp(Date.now() + 2 * HOUR_MS),
    capacity,
  }));
  verify(
    PHASE,
    `01 lease churn: ${chosen.length} leases renewed`,
    renewed.applied.length === chosen.length,
    `${renewed.applied.length} renewed`,
  );
  const total = await lapseAndExpire(plan, client, PHASE, chosen, {
    revision: 2,
    capacity,
    batch: params['batch'] || 200,
    check: `02 lease churn: ${chosen.length} leases reported expired`,
  });
  verify(PHASE, `03 lease churn: lease expiry took at least ${chosen.length} replicas offline`, total >= chosen.length, `${total} expired`);
  const after = (
    await sendAll(
      chosen.map((r) => client.replica(r.id)),
      100,
    )
  ).map((res) => (expectResponse(res, ['200']) ? bodyOf(res) : null));
  verify(
    PHASE,
    '04 lease churn: every churned replica is offline with no assignments',
    after.every((r) => r && r.status === 'offline' && r.active_assignments === 0),
  );
}
