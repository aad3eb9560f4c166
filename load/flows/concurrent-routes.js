// Phase `concurrent_routes`: `routes` fresh actions of tenant 1 for its
// primary capability, all in flight at once and all held until
// every one is answered. Their latencies carry the route p99 threshold and
// their count over the batch's wall time the throughput threshold. With all
// reservations held: every eligible replica is used when there are at least
// as many routes as replicas, max − min per replica stays within
// `max_spread`, no replica holds more than its capacity, and the registry's
// own active_assignments agree. Everything is then settled and the replicas
// are back to zero.
import exec from 'k6/execution';
import { eligibleAfterRollout } from '../lib/fleet-facts.js';
import { journal, journalLatencies, journalRoute } from '../lib/journal.js';
import { routeSpread, routeThroughput, routesCreated } from '../lib/metrics.js';
import { bodyOf, expectResponse, registryClient, sendAll } from '../lib/registry.js';
import { settleAll } from '../lib/routing.js';
import { verify } from '../lib/verify.js';

const PHASE = 'concurrent_routes';

/**
 * The action ids of this phase, so the retry phase can find the routes.
 * @param {string} runId
 * @param {number} iteration
 * @param {number} i
 */
export function concurrentRouteId(runId, iteration, i) {
  return `act-${runId}-routes-${iteration}-${i}`;
}

/**
 * @param {ReturnType<typeof registryClient>} client
 * @param {string[]} replicaIds
 */
async function readReplicas(client, replicaIds) {
  return (
    await sendAll(
      replicaIds.map((id) => client.replica(id)),
      100,
    )
  ).map((res) => (expectResponse(res, ['200']) ? bodyOf(res) : null));
}

/**
 * As many replica reads as routes, all at once, before the routes: each
 * route then finds a connection already open and the batch reaches the
 * registry together, not one connection set-up after another (the first
 * route, on a connection left from the seed, would otherwise be answered
 * before most of the others arrive).
 * @param {ReturnType<typeof registryClient>} client
 * @param {string[]} replicaIds
 * @param {number} count
 */
async function openConnections(client, replicaIds, count) {
  if (replicaIds.length > 0)
    await sendAll(Array.from({ length: count }, (_, i) => client.replica(/** @type {string} */ (replicaIds[i % replicaIds.length]))));
}

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export async function concurrentRoutes(plan, data, params) {
  const client = registryClient(plan, PHASE);
  const count = params['routes'] || 500;
  const spreadLimit = params['max_spread'] ?? 3;
  const cap = data.primaryCapability(1);
  const eligible = eligibleAfterRollout(plan, data, 1, cap);
  const iteration = exec.scenario.iterationInTest;

  const requests = [];
  for (let i = 0; i < count; i++) requests.push(client.resolve(1, concurrentRouteId(plan.run_id, iteration, i), cap));
  await openConnections(client, eligible, count);
  const started = Date.now();
  const responses = await sendAll(requests);
  const wallMs = Math.max(1, Date.now() - started);
  routeThroughput.add((count * 1000) / wallMs, { phase: PHASE });
  journalLatencies(
    PHASE,
    'resolve',
    responses.map((r) => r.timings.duration),
  );

  /** @type {import('../../contract/records.ts').RouteAssignment[]} */
  const assignments = [];
  for (const res of responses) if (expectResponse(res, ['200'])) assignments.push(bodyOf(res).assignment);
  for (const a of assignments) journalRoute(PHASE, a);
  routesCreated.add(assignments.length);
  verify(PHASE, `01 concurrent routes: all ${count} resolved`, assignments.length === count, `${assignments.length} resolved`);

  /** @type {Record<string, number>} */
  const held = Object.fromEntries(eligible.map((id) => [id, 0]));
  let outside = 0;
  for (const a of assignments) {
    if (a.replica_id in held) held[a.replica_id] = (held[a.replica_id] || 0) + 1;
    else outside++;
  }
  const counts = Object.values(held);
  const spread = Math.max(...counts) - Math.min(...counts);
  routeSpread.add(spread, { phase: PHASE });
  verify(PHASE, '02 concurrent routes: only eligible replicas chosen', outside === 0, `${outside} outside`);
  if (count >= eligible.length)
    verify(
      PHASE,
      '03 concurrent routes: every eligible replica used',
      counts.every((c) => c > 0),
    );
  verify(PHASE, `04 concurrent routes: max − min per replica ≤ ${spreadLimit}`, spread <= spreadLimit, `spread ${spread}`);
  const capacity = data.dimensions.replica_capacity;
  verify(
    PHASE,
    '05 concurrent routes: no replica holds more than its capacity',
    counts.every((c) => c <= capacity),
  );

  const replicas = await readReplicas(client, eligible);
  let agree = 0;
  replicas.forEach((r, i) => {
    if (!r) return;
    journal({ k: 'replica', phase: PHASE, id: r.id, active: r.active_assignments, capacity: r.capacity });
    if (r.active_assignments === held[/** @type {string} */ (eligible[i])]) agree++;
  });
  verify(
    PHASE,
    "06 concurrent routes: the registry's active_assignments match the routes held",
    agree === eligible.length,
    `${agree} of ${eligible.length}`,
  );

  const released = await settleAll(client, assignments, () => 1, 'completed');
  verify(PHASE, '07 concurrent routes: every route settles', released === assignments.length);
  const after = await readReplicas(client, eligible);
  verify(
    PHASE,
    '08 concurrent routes: active assignments back to 0',
    after.every((r) => r && r.active_assignments === 0),
  );
}
