// Phases `catalog_walk` and `parallel_catalog`. The walk pages through one
// tenant's catalog with cursors: no page above the limit, revision and total
// constant, no duplicates, every visible capability exactly once. The
// parallel reads fetch the first page of many tenants at once; their
// latencies carry the catalog p99 threshold.
import { journalLatencies } from '../lib/journal.js';
import { bodyOf, expectResponse, registryClient, send, sendAll } from '../lib/registry.js';
import { verify } from '../lib/verify.js';

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export async function catalogWalk(plan, data, params) {
  const phase = 'catalog_walk';
  const client = registryClient(plan, phase);
  const limit = params['page_limit'] || 50;
  /** @type {string[]} */
  const seen = [];
  const revisions = new Set();
  const totals = new Set();
  let oversized = 0;
  let pages = 0;
  /** @type {string | null} */
  let cursor = null;
  do {
    const res = await send(client.catalog(1, limit, cursor));
    if (!expectResponse(res, ['200'])) break;
    const page = bodyOf(res);
    pages++;
    if (page.capabilities.length > limit) oversized++;
    revisions.add(page.catalog_revision);
    totals.add(page.total);
    for (const d of page.capabilities) seen.push(d.capability.id);
    cursor = page.next_cursor;
  } while (cursor && pages < 100000);
  const expected = data.tenantCapabilities(1);
  verify(phase, `01 catalog walk: no page holds more than ${limit}`, pages > 0 && oversized === 0);
  verify(phase, '02 catalog walk: revision and total constant across pages', revisions.size === 1 && totals.size === 1);
  verify(phase, '03 catalog walk: no capability twice', new Set(seen).size === seen.length);
  verify(phase, '04 catalog walk: distinct capabilities equal total', seen.length === [...totals][0]);
  verify(
    phase,
    "05 catalog walk: exactly the tenant's bound capabilities",
    seen.join() === expected.join(),
    `${seen.length} seen, ${expected.length} bound`,
  );
}

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export async function parallelCatalog(plan, data, params) {
  const phase = 'parallel_catalog';
  const client = registryClient(plan, phase);
  const limit = params['page_limit'] || 50;
  const tenants = Math.min(data.dimensions.tenants, params['tenants'] || 32);
  const requests = [];
  for (let k = 1; k <= tenants; k++) requests.push(client.catalog(k, limit));
  const responses = await sendAll(requests);
  journalLatencies(
    phase,
    'catalog',
    responses.map((r) => r.timings.duration),
  );
  let right = 0;
  responses.forEach((res, i) => {
    const page = expectResponse(res, ['200']) ? bodyOf(res) : null;
    if (page && page.capabilities.length <= limit && page.total === data.tenantCapabilities(i + 1).length) right++;
  });
  verify(phase, `01 parallel catalog: ${tenants} first pages, each with the tenant's total`, right === tenants, `${right} right`);
}
