// Phase `retry_rotation`: the first `retries` routes of the concurrent
// routing phase (all settled) are re-resolved at once with the same action,
// capability and tenant; each must come back identical to the stored route,
// fence token included, and is settled again. Then tenant 1's bindings for
// the capability rotate to credential-revision-2: a pinned action keeps
// credential-revision-1, a fresh one gets credential-revision-2.
import exec from 'k6/execution';
import { eligibleAfterRollout, rolloutIds, runsPhase } from '../lib/fleet-facts.js';
import { journalLatencies, journalRoute } from '../lib/journal.js';
import { routesCreated } from '../lib/metrics.js';
import { batchResults, bodyOf, expectResponse, registryClient, send, sendAll } from '../lib/registry.js';
import { sameAssignment, settleAll } from '../lib/routing.js';
import { verify } from '../lib/verify.js';
import { concurrentRouteId } from './concurrent-routes.js';

const PHASE = 'retry_rotation';

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 * @param {Record<string, number>} routeParams the concurrent_routes phase's
 */
export async function retryRotation(plan, data, params, routeParams) {
  const client = registryClient(plan, PHASE);
  const cap = data.primaryCapability(1);
  const retries = Math.min(params['retries'] || 100, routeParams['routes'] || 500);
  const ids = [];
  for (let i = 0; i < retries; i++) ids.push(concurrentRouteId(plan.run_id, 0, i));

  const stored = (await sendAll(ids.map((id) => client.route(1, id)))).map((res) => (expectResponse(res, ['200']) ? bodyOf(res) : null));
  verify(
    PHASE,
    `01 retry: the ${retries} routes are stored and settled`,
    stored.every((v) => v && v.reserved === false),
  );
  const responses = await sendAll(ids.map((id) => client.resolve(1, id, cap)));
  journalLatencies(
    PHASE,
    'resolve',
    responses.map((r) => r.timings.duration),
  );
  const again = responses.map((res) => (expectResponse(res, ['200']) ? bodyOf(res).assignment : null));
  const identical = again.filter((a, i) => sameAssignment(a, stored[i] && stored[i].assignment)).length;
  verify(
    PHASE,
    '02 retry: every retry returns the identical assignment, fence token included',
    identical === retries,
    `${identical} of ${retries}`,
  );
  const admitted = /** @type {import('../../contract/records.ts').RouteAssignment[]} */ (again.filter(Boolean));
  verify(PHASE, '03 retry: every retried route settles', (await settleAll(client, admitted, () => 1, 'completed')) === admitted.length);

  // Rotate every binding of tenant 1 for the capability.
  const rollout = runsPhase(plan, 'version_rollout') ? rolloutIds(plan, data) : null;
  const instances = eligibleAfterRollout(plan, data, 1, cap).map((replica) =>
    rollout && replica === rollout.newReplica ? rollout.instance : replica.replace(/^crepl_/, 'cinst_'),
  );
  const items = instances.map((instance) => ({
    op: 'put_binding',
    record: data.builders.binding(data.ids.tenant(1), cap, instance, {
      quota_policy_ref: data.ids.policy,
      policy_revision: 2,
      credential_revision_ref: 'credential-revision-2',
    }),
  }));
  const rotated = await send(client.batch(items));
  const results = batchResults(rotated);
  verify(
    PHASE,
    '04 rotation: every binding rotated',
    results.length === items.length && results.every((/** @type {{ outcome: string }} */ r) => r.outcome === 'applied'),
  );

  const first = stored[0] && stored[0].assignment;
  const pinnedRes = await send(client.resolve(1, ids[0] || '', cap));
  const pinned = expectResponse(pinnedRes, ['200']) ? bodyOf(pinnedRes).assignment : null;
  verify(PHASE, '05 rotation: a pinned route keeps its assignment', sameAssignment(pinned, first));
  verify(
    PHASE,
    '06 rotation: a pinned route keeps credential-revision-1',
    Boolean(pinned) && pinned.credential_revision_ref === 'credential-revision-1',
  );
  const freshRes = await send(client.resolve(1, `act-${plan.run_id}-rotation-${exec.scenario.iterationInTest}-fresh`, cap));
  const fresh = expectResponse(freshRes, ['200']) ? bodyOf(freshRes).assignment : null;
  if (fresh) {
    journalRoute(PHASE, fresh);
    routesCreated.add(1);
  }
  verify(
    PHASE,
    '07 rotation: a new route gets credential-revision-2',
    Boolean(fresh) && fresh.credential_revision_ref === 'credential-revision-2',
  );
  const both = [pinned, fresh].filter(Boolean);
  verify(PHASE, '08 rotation: both routes settle', (await settleAll(client, both, () => 1, 'completed')) === both.length);
}
