// The sustained phases, run side by side at constant arrival rates for the
// profile's duration: resolve+settle (`sustained_routes`), first catalog
// pages (`sustained_catalog`), lease heartbeats (`heartbeats`), batches of
// replicas expired (`sustained_lease_churn`) and replica reads
// (`replica_monitor`). Each iteration picks its work from
// exec.scenario.iterationInTest, which is unique across the instances of a
// distributed run, so ids never collide. Health reports (heartbeats, lease
// churn) go to the part's own share of each pool, at revisions from the
// scenario's start time (fleet-facts.js shareOf, timedRevision): no two
// parts write one replica, and a part that runs late or again still sends
// revisions above every earlier one. The profile is refused before the run
// when the churn pool is empty (load/runner/scale-contract.ts).
//
// CAPACITY_EXCEEDED is the one refusal a resolve may meet here: a registry
// may protect itself with admission limits of its own. It is counted
// (fleetproof_capacity_refusals), never treated as an error.
import exec from 'k6/execution';
import { churnSlice, routingTenants, shareOf, sustainedPools, timedRevision } from '../lib/fleet-facts.js';
import { journal, journalRoute } from '../lib/journal.js';
import { capacityRefusals, routesCreated } from '../lib/metrics.js';
import { bodyOf, expectResponse, registryClient, send, sendAll } from '../lib/registry.js';
import { segmentBounds } from '../lib/plan.js';
import { verify } from '../lib/verify.js';
import { lapseAndExpire } from './lease-churn.js';

/** @type {ReturnType<typeof sustainedPools> | undefined} */
let pools;
/** @type {{ heartbeat: string[], churn: string[] } | undefined} */
let shares;
/** @type {Record<number, number>} */
const bound = {};

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 */
function poolsOf(plan, data) {
  return (pools = pools || sustainedPools(plan, data));
}

/**
 * The replicas this part reports the health of.
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 */
function sharesOf(plan, data) {
  if (shares) return shares;
  const all = poolsOf(plan, data);
  const segment = segmentBounds();
  return (shares = { heartbeat: shareOf(all.heartbeat, segment), churn: shareOf(all.churn, segment) });
}

/**
 * One resolve+settle; the breakpoint ramp runs it too, as its own phase,
 * with ids of each step's scenario. An abort of the ramp's test cuts
 * iterations wherever they are, a resolve in flight included: the request
 * helpers journal each action before resolving it, so the runner can settle
 * a route the cut left held.
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {string} [phase]
 * @param {string} [idPart] what makes the action ids of this phase and scenario unique
 */
export async function sustainedRoute(plan, data, phase = 'sustained_routes', idPart = 'sustained') {
  const client = registryClient(plan, phase);
  const n = exec.scenario.iterationInTest;
  const k = 1 + (n % routingTenants(plan, data, phase));
  const actionId = `act-${plan.run_id}-${idPart}-${n}`;
  const res = await send(client.resolve(k, actionId, data.primaryCapability(k)));
  const allowed = expectResponse(res, ['200', '429:CAPACITY_EXCEEDED']);
  verify(phase, '01 sustained: resolve admitted or refused with CAPACITY_EXCEEDED', allowed);
  if (!allowed) return;
  if (res.status === 429) {
    const details = bodyOf(res).error.details;
    capacityRefusals.add(1, { scope: details ? String(details.scope) : 'unknown' });
    return;
  }
  const assignment = bodyOf(res).assignment;
  journalRoute(phase, assignment);
  routesCreated.add(1);
  const settled = await send(client.settle(k, assignment, 'completed'));
  verify(phase, '02 sustained: settlement releases the reservation', expectResponse(settled, ['200']) && bodyOf(settled).released === true);
}

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export async function sustainedCatalog(plan, data, params) {
  const phase = 'sustained_catalog';
  const client = registryClient(plan, phase);
  const k = 1 + (exec.scenario.iterationInTest % data.dimensions.tenants);
  const res = await send(client.catalog(k, params['page_limit'] || 50));
  const page = expectResponse(res, ['200']) ? bodyOf(res) : null;
  if (bound[k] === undefined) bound[k] = data.tenantCapabilities(k).length;
  verify(phase, "01 sustained catalog: first page with the tenant's total", Boolean(page) && page.total === bound[k]);
}

/**
 * The part's iteration m heartbeats replica m mod P of its share of the
 * heartbeat pool, at the scenario's timed revision ⌊m / P⌋: the same replica
 * comes round again only after P other heartbeats, one revision higher.
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 */
export async function heartbeat(plan, data) {
  const phase = 'heartbeats';
  const client = registryClient(plan, phase);
  const share = sharesOf(plan, data).heartbeat;
  if (share.length === 0) return;
  const m = exec.scenario.iterationInInstance;
  const id = /** @type {string} */ (share[m % share.length]);
  const report = {
    health_revision: timedRevision(exec.scenario.startTime, 1 + Math.floor(m / share.length)),
    status: /** @type {const} */ ('ready'),
    lease_expires_at: new Date(plan.lease_until_ms).toISOString(),
    capacity: data.dimensions.replica_capacity,
  };
  const res = await send(client.health(id, report));
  verify(phase, '01 heartbeat: applied', expectResponse(res, ['200']) && bodyOf(res).outcome === 'applied');
}

/**
 * The part's iteration m expires its slice of the part's share of the churn
 * pool (fleet-facts.js churnSlice).
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export async function sustainedLeaseChurn(plan, data, params) {
  const phase = 'sustained_lease_churn';
  const client = registryClient(plan, phase);
  const size = params['batch'] || 50;
  const slice = churnSlice(sharesOf(plan, data).churn, exec.scenario.iterationInInstance, size, exec.scenario.startTime);
  await lapseAndExpire(plan, client, phase, slice, {
    revision: 1,
    capacity: data.dimensions.replica_capacity,
    batch: size,
    check: '01 sustained churn: leases reported expired',
  });
  const after = (await sendAll(slice.map((r) => client.replica(r.id)))).map((res) => (expectResponse(res, ['200']) ? bodyOf(res) : null));
  verify(
    phase,
    '02 sustained churn: the replicas are offline',
    after.every((r) => r && r.status === 'offline'),
  );
}

/**
 * Reads one replica of the routing tenants per iteration; the audit checks
 * that no observation shows more active assignments than capacity.
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 */
export async function replicaMonitor(plan, data) {
  const phase = 'replica_monitor';
  const client = registryClient(plan, phase);
  const pool = poolsOf(plan, data).heartbeat;
  if (pool.length === 0) return;
  const res = await send(client.replica(/** @type {string} */ (pool[exec.scenario.iterationInTest % pool.length])));
  const r = expectResponse(res, ['200']) ? bodyOf(res) : null;
  if (r) journal({ k: 'replica', phase, id: r.id, active: r.active_assignments, capacity: r.capacity });
  verify(phase, '01 monitor: active assignments within capacity', Boolean(r) && r.active_assignments <= r.capacity);
}
