// Phase `noisy_tenant`: with the tenant scope limited to `tenant_limit`, one
// tenant fires `noisy_requests` resolves at once (all in
// flight together and the admitted ones hold their reservations) while a
// second tenant sends `healthy_requests`. Exactly tenant_limit noisy requests
// are admitted, the rest are CAPACITY_EXCEEDED with scope tenant, and the
// healthy tenant is untouched. Afterwards the tenant is unlimited again
// (revision 3), however the phase ends: here, and at the start of the phase
// after it when k6 cut this one at its budget, so a phase after it is never
// refused for this phase's limit.
import exec from 'k6/execution';
import { journalLatencies, journalRoute } from '../lib/journal.js';
import { capacityRefusals, routesCreated } from '../lib/metrics.js';
import { expectResponse, registryClient, send, sendAll } from '../lib/registry.js';
import { admissions, settleAll, tenantNumberOf } from '../lib/routing.js';
import { verify } from '../lib/verify.js';

const PHASE = 'noisy_tenant';

/**
 * Puts the policy the phase leaves behind (revision 3, the tenant unlimited);
 * identical to what is stored when the phase restored it itself, so a repeat is no change.
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {ReturnType<typeof registryClient>} client
 */
export async function restoreNoisyPolicy(data, client) {
  const res = await send(client.putPolicy(data.builders.policy(data.ids.policy, { revision: 3 })));
  verify(PHASE, '06 noisy tenant: tenant unlimited again (revision 3)', expectResponse(res, ['200']));
}

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export async function noisyTenant(plan, data, params) {
  const client = registryClient(plan, PHASE);
  const limit = params['tenant_limit'] || 4;
  const noisy = params['noisy_requests'] || 64;
  const healthy = data.dimensions.tenants >= 2 ? params['healthy_requests'] || 0 : 0;
  const policy = data.builders.policy(data.ids.policy, { revision: 2, max_tenant_in_flight: limit });
  verify(PHASE, '01 noisy tenant: policy revision 2 applied', expectResponse(await send(client.putPolicy(policy)), ['200']));

  const iteration = exec.scenario.iterationInTest;
  const id = (/** @type {string} */ who, /** @type {number} */ i) => `act-${plan.run_id}-noisy-${iteration}-${who}-${i}`;
  const requests = [];
  for (let i = 0; i < noisy; i++) requests.push(client.resolve(1, id('n', i), data.primaryCapability(1)));
  for (let i = 0; i < healthy; i++) requests.push(client.resolve(2, id('h', i), data.primaryCapability(2)));
  const responses = await sendAll(requests);
  journalLatencies(
    PHASE,
    'resolve',
    responses.map((r) => r.timings.duration),
  );

  const noisyResult = admissions(responses.slice(0, noisy));
  const healthyResult = admissions(responses.slice(noisy));
  for (const a of [...noisyResult.admitted, ...healthyResult.admitted]) journalRoute(PHASE, a);
  routesCreated.add(noisyResult.admitted.length + healthyResult.admitted.length);
  capacityRefusals.add(noisyResult.refusedScopes.length, { scope: 'tenant' });
  verify(
    PHASE,
    `02 noisy tenant: exactly ${limit} admitted`,
    noisyResult.admitted.length === limit,
    `${noisyResult.admitted.length} admitted`,
  );
  verify(
    PHASE,
    `03 noisy tenant: exactly ${noisy - limit} refused with scope tenant`,
    noisyResult.refusedScopes.length === noisy - limit && noisyResult.refusedScopes.every((s) => s === 'tenant'),
    noisyResult.refusedScopes.join(','),
  );
  verify(PHASE, '04 noisy tenant: every healthy-tenant request admitted', healthyResult.admitted.length === healthy);

  const all = [...noisyResult.admitted, ...healthyResult.admitted];
  const tenantNumber = tenantNumberOf(data);
  verify(PHASE, '05 noisy tenant: every admitted route settles', (await settleAll(client, all, tenantNumber, 'completed')) === all.length);
  await restoreNoisyPolicy(data, client);
}
