// Helpers shared by the routing phases: sorting resolve responses into
// admitted routes and refusals, settling in bulk, comparing assignments.
import { canonicalJson } from '../../contract/canonical-json.js';
import { bodyOf, expectResponse, registryClient, sendAll } from './registry.js';

/**
 * Resolves that were admitted, and the scopes of those refused.
 * @param {import('./registry.js').Response[]} responses
 */
export function admissions(responses) {
  /** @type {import('../../contract/records.ts').RouteAssignment[]} */
  const admitted = [];
  /** @type {string[]} */
  const refusedScopes = [];
  for (const res of responses) {
    if (!expectResponse(res, ['200', '429:CAPACITY_EXCEEDED'])) continue;
    const body = bodyOf(res);
    if (res.status === 200) admitted.push(body.assignment);
    else refusedScopes.push(body.error.details ? String(body.error.details.scope) : '');
  }
  return { admitted, refusedScopes };
}

/**
 * Settles every assignment with `outcome`; returns how many released.
 * @param {ReturnType<typeof registryClient>} client
 * @param {import('../../contract/records.ts').RouteAssignment[]} assignments
 * @param {(tenantId: string) => number} tenantNumber
 * @param {string} outcome
 */
export async function settleAll(client, assignments, tenantNumber, outcome) {
  const responses = await sendAll(assignments.map((a) => client.settle(tenantNumber(a.tenant_id), a, outcome)));
  return responses.filter((res) => expectResponse(res, ['200']) && bodyOf(res).released === true).length;
}

/**
 * Tenant id → tenant number, for picking the tenant's token.
 * @param {ReturnType<typeof import('./dataset.js').scaleDataset>} data
 */
export function tenantNumberOf(data) {
  /** @type {Record<string, number>} */
  const byId = {};
  for (let k = 1; k <= data.dimensions.tenants; k++) byId[data.ids.tenant(k)] = k;
  return (/** @type {string} */ tenantId) => byId[tenantId] || 0;
}

/**
 * Whether two assignments are identical in every field.
 * @param {unknown} a
 * @param {unknown} b
 */
export function sameAssignment(a, b) {
  return a != null && b != null && canonicalJson(a) === canonicalJson(b);
}
