// Phase `lease_churn`: `replicas` ready replicas of the run (the first by
// id) renew their lease, then report it expired; lease expiry is called with
// limit `batch` until a call returns fewer. Exactly those replicas are
// offline afterwards.
import { qualificationChurn } from '../lib/fleet-facts.js';
import { bodyLimitOf, bySize } from '../lib/batches.js';
import { journal } from '../lib/journal.js';
import { expiredReplicas } from '../lib/metrics.js';
import { bodyOf, expectResponse, registryClient, send, sendAll } from '../lib/registry.js';
import { verify } from '../lib/verify.js';

const PHASE = 'lease_churn';
const HOUR_MS = 3600 * 1000;

/**
 * Health reports for the replicas, in batches of at most 1000 items (the
 * smallest legal max_batch_items) within the target's body limit; returns
 * how many were applied.
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof registryClient>} client
 * @param {{ id: string, revision: number }[]} replicas
 * @param {(r: { id: string, revision: number }) => import('../../contract/records.ts').HealthReport} report
 */
export function reportHealth(plan, client, replicas, report) {
  const items = replicas.map((r) => ({ op: 'report_health', id: r.id, report: report(r) }));
  const requests = bySize(items, bodyLimitOf(plan), 1000).map((chunk) => client.batch(/** @type {any} */ (chunk)));
  let applied = 0;
  for (const res of sendAll(requests, 4)) {
    if (expectResponse(res, ['200'])) applied += bodyOf(res).results.filter((/** @type {{ outcome: string }} */ x) => x.outcome === 'applied').length;
  }
  return applied;
}

/**
 * Calls lease expiry until a call expires fewer than `limit`; returns the total.
 * @param {ReturnType<typeof registryClient>} client
 * @param {number} limit
 */
export function expireUntilDone(client, limit) {
  let total = 0;
  for (let calls = 0; calls < 100000; calls++) {
    const res = send(client.expire(limit));
    if (!expectResponse(res, ['200'])) break;
    const expired = bodyOf(res).expired;
    total += expired;
    if (expired < limit) break;
  }
  return total;
}

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export function leaseChurn(plan, data, params) {
  const client = registryClient(plan, PHASE);
  const chosen = qualificationChurn(plan, data);
  const capacity = data.dimensions.replica_capacity;
  const stamp = (/** @type {number} */ ms) => new Date(ms).toISOString();
  const renewed = reportHealth(plan, client, chosen, (r) => ({ health_revision: r.revision + 1, status: 'ready', lease_expires_at: stamp(Date.now() + 2 * HOUR_MS), capacity }));
  verify(PHASE, `01 lease churn: ${chosen.length} leases renewed`, renewed === chosen.length, `${renewed} renewed`);
  const lapsed = reportHealth(plan, client, chosen, (r) => ({ health_revision: r.revision + 2, status: 'ready', lease_expires_at: stamp(Date.now() - 1), capacity }));
  verify(PHASE, `02 lease churn: ${chosen.length} leases reported expired`, lapsed === chosen.length, `${lapsed} reported`);
  journal({ k: 'offline', phase: PHASE, ids: chosen.map((r) => r.id) });

  const total = expireUntilDone(client, params['batch'] || 200);
  expiredReplicas.add(total, { phase: PHASE });
  verify(PHASE, `03 lease churn: lease expiry took at least ${chosen.length} replicas offline`, total >= chosen.length, `${total} expired`);
  const after = sendAll(chosen.map((r) => client.replica(r.id)), 100).map((res) => (expectResponse(res, ['200']) ? bodyOf(res) : null));
  verify(PHASE, '04 lease churn: every churned replica is offline with no assignments', after.every((r) => r && r.status === 'offline' && r.active_assignments === 0));
}
