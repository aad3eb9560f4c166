// Phase `retry_storm`: with the tenant retry scope limited to `retry_limit`,
// `actions` routes are resolved one after the other and each settled with
// outcome_unknown; then all of them are re-resolved at once (retries of
// settled routes) while a second tenant sends fresh requests. Exactly
// retry_limit retries are admitted, each returning its pinned assignment,
// the rest are CAPACITY_EXCEEDED with scope tenant_retry, and the healthy
// tenant is untouched. Afterwards the policy is unlimited again, however the
// phase ends: on an exception here, and, since k6 cuts a phase at its budget
// without running its code further, at the start of the phase after it.
//
// outcome_unknown counts towards a replica's circuit; the scale policy's
// circuit threshold (1000, from contract/builders.js) is far above the
// failures one storm can put on a replica, so an open circuit never turns an
// admission refusal into REPLICA_UNAVAILABLE. The anchor's fleet preset
// (threshold 5) would make the outcome depend on how the hash spreads the
// actions over replicas.
import exec from 'k6/execution';
import { journalLatencies, journalRoute } from '../lib/journal.js';
import { capacityRefusals, routesCreated } from '../lib/metrics.js';
import { bodyOf, expectResponse, registryClient, send, sendAll } from '../lib/registry.js';
import { admissions, sameAssignment, settleAll, tenantNumberOf } from '../lib/routing.js';
import { verify } from '../lib/verify.js';

const PHASE = 'retry_storm';

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export async function retryStorm(plan, data, params) {
  const client = registryClient(plan, PHASE);
  try {
    await storm(plan, data, params, client);
  } finally {
    await restoreStormPolicy(data, client);
  }
}

/**
 * Puts the policy the storm leaves behind (revision 5, retries unlimited);
 * identical to what is stored when the storm restored it itself, so a repeat is no change.
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {ReturnType<typeof registryClient>} client
 */
export async function restoreStormPolicy(data, client) {
  const res = await send(client.putPolicy(data.builders.policy(data.ids.policy, { revision: 5, max_tenant_retry_in_flight: 4294967295 })));
  verify(PHASE, '08 retry storm: policy unlimited again (revision 5)', expectResponse(res, ['200']));
}

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 * @param {ReturnType<typeof registryClient>} client
 */
async function storm(plan, data, params, client) {
  const limit = params['retry_limit'] || 8;
  const actions = params['actions'] || 64;
  const healthy = data.dimensions.tenants >= 2 ? params['healthy_requests'] || 0 : 0;
  const cap = data.primaryCapability(1);
  const tenantNumber = tenantNumberOf(data);
  const policy = (/** @type {number} */ revision, /** @type {number} */ retries) =>
    data.builders.policy(data.ids.policy, { revision, max_tenant_retry_in_flight: retries });
  // Revision 4: above whatever the noisy tenant left (2, or 3 once it restored its policy).
  verify(PHASE, '01 retry storm: policy revision 4 applied', expectResponse(await send(client.putPolicy(policy(4, limit))), ['200']));

  const iteration = exec.scenario.iterationInTest;
  const id = (/** @type {string} */ who, /** @type {number} */ i) => `act-${plan.run_id}-storm-${iteration}-${who}-${i}`;
  /** @type {import('../../contract/records.ts').RouteAssignment[]} */
  const originals = [];
  for (let i = 0; i < actions; i++) {
    const res = await send(client.resolve(1, id('r', i), cap));
    if (!expectResponse(res, ['200'])) continue;
    const a = bodyOf(res).assignment;
    journalRoute(PHASE, a);
    originals.push(a);
    expectResponse(await send(client.settle(1, a, 'outcome_unknown')), ['200']);
  }
  routesCreated.add(originals.length);
  verify(PHASE, `02 retry storm: ${actions} routes resolved and settled outcome_unknown`, originals.length === actions);

  const requests = originals.map((a) => client.resolve(1, a.action_id, cap));
  for (let i = 0; i < healthy; i++) requests.push(client.resolve(2, id('h', i), data.primaryCapability(2)));
  const responses = await sendAll(requests);
  journalLatencies(
    PHASE,
    'resolve',
    responses.map((r) => r.timings.duration),
  );
  const retries = admissions(responses.slice(0, originals.length));
  const fresh = admissions(responses.slice(originals.length));
  for (const a of fresh.admitted) journalRoute(PHASE, a);
  capacityRefusals.add(retries.refusedScopes.length, { scope: 'tenant_retry' });

  const byAction = Object.fromEntries(originals.map((a) => [a.action_id, a]));
  verify(
    PHASE,
    `03 retry storm: exactly ${limit} retries admitted`,
    retries.admitted.length === limit,
    `${retries.admitted.length} admitted`,
  );
  verify(
    PHASE,
    '04 retry storm: every admitted retry returns its pinned assignment',
    retries.admitted.every((a) => sameAssignment(a, byAction[a.action_id])),
  );
  verify(
    PHASE,
    `05 retry storm: exactly ${originals.length - limit} retries refused with scope tenant_retry`,
    retries.refusedScopes.length === originals.length - limit && retries.refusedScopes.every((s) => s === 'tenant_retry'),
    retries.refusedScopes.join(','),
  );
  verify(PHASE, '06 retry storm: every healthy-tenant request admitted', fresh.admitted.length === healthy);
  const admitted = [...retries.admitted, ...fresh.admitted];
  verify(
    PHASE,
    '07 retry storm: every admitted route settles',
    (await settleAll(client, admitted, tenantNumber, 'completed')) === admitted.length,
  );
}
