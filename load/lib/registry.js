// Requests of fleetproof-registry/v1 (contract/openapi.yaml) as k6 request
// objects, sent with http.asyncRequest: every flow is an async function, so
// the same script runs on k6 and on the Node runner (load/README.md), and a
// VU holds no thread while it waits. Every request is tagged with its phase, its
// operation and a URL template as `name`, which keeps ids out of metric tags.
import exec from 'k6/execution';
import http from 'k6/http';
import { setTimeout } from 'k6/timers';
import { journal } from './journal.js';
import { contentionRefusals, indeterminateResponses, resendWaits, unexpectedResponses } from './metrics.js';

/** @typedef {import('k6/http').Params} Params */
/** @typedef {import('k6/http').RefinedResponse<'text'>} Response */
/**
 * `tenant` and `action`: the tenant and the action a resolve or settlement is for, which the journal names.
 * @typedef {{ method: string, url: string, body?: string | null, params: Params, tenant?: number, action?: string }} RegistryRequest
 */

// A resolve may be refused with CAPACITY_EXCEEDED by design; it is not an HTTP failure then.
const OK_OR_CAPACITY = http.expectedStatuses({ min: 200, max: 299 }, 429);

/**
 * @param {import('./plan.js').RunPlan} plan
 * @param {string} phase
 */
export function registryClient(plan, phase) {
  const base = plan.target.replace(/\/+$/, '');
  /** @param {number} k 1-based tenant number */
  const tenantToken = (k) => {
    const token = plan.tokens.tenants[k - 1];
    if (!token) throw new Error(`the run plan holds no token for tenant ${k}`);
    return token;
  };

  /**
   * @param {string} method
   * @param {string} path
   * @param {string} name URL template for the `name` tag
   * @param {string} operation
   * @param {string} token
   * @param {unknown} [body]
   * @param {Params} [extra]
   * @returns {RegistryRequest}
   */
  function request(method, path, name, operation, token, body, extra = {}) {
    // Static headers (--header) first; a token from the plan, when there is one, speaks as the caller.
    /** @type {Record<string, string>} */
    const headers = { ...(plan.headers ?? {}) };
    if (token !== '') headers['Authorization'] = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return {
      method,
      url: base + path,
      body: body === undefined ? null : JSON.stringify(body),
      params: { headers, tags: { phase, operation, name }, timeout: '60s', ...extra },
    };
  }
  const control = plan.tokens.control;
  const enc = encodeURIComponent;

  return {
    /** @param {unknown[]} items */
    batch: (items) => request('POST', '/v1/batch', '/v1/batch', 'batch', control, { items }),
    /** @param {import('../../contract/records.ts').AdmissionPolicy} policy */
    putPolicy: (policy) =>
      request('PUT', `/v1/admission-policies/${enc(policy.policy_ref)}`, '/v1/admission-policies/{policy_ref}', 'policy', control, policy),
    /** @param {number} k @param {string} actionId @param {string} capabilityId */
    resolve: (k, actionId, capabilityId) => ({
      ...request(
        'POST',
        '/v1/routes',
        '/v1/routes',
        'resolve',
        tenantToken(k),
        { action_id: actionId, capability_id: capabilityId },
        { responseCallback: OK_OR_CAPACITY },
      ),
      tenant: k,
      action: actionId,
    }),
    /** @param {number} k @param {string} actionId */
    route: (k, actionId) => request('GET', `/v1/routes/${enc(actionId)}`, '/v1/routes/{action_id}', 'read_route', tenantToken(k)),
    /** @param {number} k @param {import('../../contract/records.ts').RouteAssignment} assignment @param {string} outcome */
    settle: (k, assignment, outcome) => ({
      ...request(
        'POST',
        `/v1/routes/${enc(assignment.action_id)}/settlement`,
        '/v1/routes/{action_id}/settlement',
        'settle',
        tenantToken(k),
        { assignment, outcome },
      ),
      tenant: k,
      action: assignment.action_id,
    }),
    /** @param {number} k @param {number} limit @param {string | null} [cursor] */
    catalog: (k, limit, cursor) =>
      request('GET', `/v1/catalog?limit=${limit}${cursor ? `&cursor=${enc(cursor)}` : ''}`, '/v1/catalog', 'catalog', tenantToken(k)),
    /** @param {string} id */
    replica: (id) => request('GET', `/v1/replicas/${enc(id)}`, '/v1/replicas/{replica_id}', 'read_replica', control),
    /** @param {string} id @param {import('../../contract/records.ts').HealthReport} report */
    health: (id, report) =>
      request('POST', `/v1/replicas/${enc(id)}/health`, '/v1/replicas/{replica_id}/health', 'health', control, report),
    /** @param {number} limit */
    expire: (limit) => request('POST', '/v1/fleet/lease-expiry', '/v1/fleet/lease-expiry', 'expire', control, { limit }),
    /** @param {{ tenant_id: string, capability_id: string, instance_id: string }} b */
    binding: (b) =>
      request(
        'GET',
        `/v1/bindings/${enc(b.tenant_id)}/${enc(b.capability_id)}/${enc(b.instance_id)}`,
        '/v1/bindings/{tenant_id}/{capability_id}/{instance_id}',
        'read_binding',
        control,
      ),
  };
}

/**
 * Operations a dispatcher retries unchanged when their outcome is unknown:
 * the contract makes the same resolve, settlement or read safe to repeat
 * ([failure-indeterminate]). Health reports and policy writes carry
 * revisions of their own and are not among them.
 */
const RETRIED_OPERATIONS = ['resolve', 'settle', 'read_route', 'read_replica', 'catalog', 'read_binding'];
/** Pauses before each retry of an indeterminate answer or a contended resolve, in seconds: about 1.5 s in all. */
const RETRY_DELAYS_S = [0.05, 0.1, 0.2, 0.4, 0.8];

/**
 * No answer (a timeout, a dropped connection) or STORAGE_UNAVAILABLE: the
 * request may or may not have taken effect.
 * @param {Response} res
 */
export function indeterminate(res) {
  return res.status === 0 || (res.status === 503 && errorCodeOf(res) === 'STORAGE_UNAVAILABLE');
}

/**
 * A resolve refused with REPLICA_UNAVAILABLE: contention may give it
 * ([route-contention]), a refusal that changed nothing, so the same resolve
 * is sent again, as a dispatcher would.
 * @param {Response} res
 */
function contended(res) {
  return res.status === 503 && errorCodeOf(res) === 'REPLICA_UNAVAILABLE';
}

/**
 * Journals the action of each resolve before it is sent: a phase cut at its
 * budget, or a test aborted, may leave a resolve in flight whose answer the
 * flow never reads, and the runner settles what such an action holds before
 * the audit only when it can name it.
 * @param {RegistryRequest[]} requests
 */
function journalAttempts(requests) {
  for (const r of requests) {
    if (r.tenant === undefined || !r.params.tags || r.params.tags['operation'] !== 'resolve') continue;
    journal({ k: 'attempt', action_id: r.action, tenant: r.tenant });
  }
}

/**
 * Sends requests at once, all in flight together, and waits for every answer.
 * @param {RegistryRequest[]} requests
 * @returns {Promise<Response[]>}
 */
function sendTogether(requests) {
  return Promise.all(requests.map((r) => /** @type {Promise<Response>} */ (http.asyncRequest(r.method, r.url, r.body, r.params))));
}

/**
 * Waits on a timer: sleep() would block the VU, and the Node runner refuses it in an async function.
 * @param {number} seconds
 */
export function pause(seconds) {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/** @param {RegistryRequest} r */
function operationOf(r) {
  return String(r.params.tags ? r.params.tags['operation'] : '');
}

/**
 * @param {RegistryRequest} r
 * @param {Response} res
 */
function worthSendingAgain(r, res) {
  return (indeterminate(res) && RETRIED_OPERATIONS.includes(operationOf(r))) || (contended(res) && operationOf(r) === 'resolve');
}

/**
 * Sends again, with bounded backoff, those whose answer is indeterminate
 * and whose operation is safe to repeat, and resolves refused for
 * contention, all of a wave together so that faults cost a wave one
 * backoff, not one per lost answer; the last answer is the one judged. A
 * resolve or settlement sent again after an indeterminate answer may have
 * taken effect the first time (a settlement then answers released: false),
 * so its iteration's failed checks are not judged.
 * @param {RegistryRequest[]} requests
 * @param {Response[]} first
 */
async function untilDeterminate(requests, first) {
  const out = first.slice();
  for (const delay of RETRY_DELAYS_S) {
    const again = requests.flatMap((r, i) => (worthSendingAgain(r, /** @type {Response} */ (out[i])) ? [i] : []));
    if (again.length === 0) break;
    if (
      again.some(
        (i) =>
          indeterminate(/** @type {Response} */ (out[i])) &&
          ['resolve', 'settle'].includes(operationOf(/** @type {RegistryRequest} */ (requests[i]))),
      )
    )
      markUnjudgeable();
    resendWaits.add(delay * 1000);
    await pause(delay);
    const answers = await sendTogether(again.map((i) => /** @type {RegistryRequest} */ (requests[i])));
    again.forEach((i, j) => (out[i] = /** @type {Response} */ (answers[j])));
  }
  requests.forEach((r, i) => journalOutcome(r, /** @type {Response} */ (out[i])));
  return out;
}

/**
 * @param {RegistryRequest} r
 * @param {Response} res its last answer
 */
function journalOutcome(r, res) {
  const operation = r.params.tags ? r.params.tags['operation'] : '';
  // The runner settles, before the audit, what the flows left reserved: what they settled is journalled.
  if (operation === 'settle' && res.status === 200) journal({ k: 'settled', action_id: r.action });
  // Refused with a client error (CAPACITY_EXCEEDED, CONFLICT…): by the contract it changed nothing, so the runner leaves the action to the audit.
  if (operation === 'resolve' && res.status >= 400 && res.status < 500 && r.tenant !== undefined)
    journal({ k: 'refused', action_id: r.action });
  // Still unknown: the runner settles what such an action may hold before the audit judges.
  if (indeterminate(res) && r.tenant !== undefined && (operation === 'resolve' || operation === 'settle')) {
    journal({ k: 'indeterminate', operation, action_id: r.action, tenant: r.tenant });
  }
}

/**
 * @param {RegistryRequest} r
 * @returns {Promise<Response>}
 */
export async function send(r) {
  journalAttempts([r]);
  return /** @type {Response} */ ((await untilDeterminate([r], await sendTogether([r])))[0]);
}

/**
 * Sends requests concurrently, in waves of at most `width`.
 * @param {RegistryRequest[]} requests
 * @param {number} [width]
 * @returns {Promise<Response[]>}
 */
export async function sendAll(requests, width = requests.length) {
  /** @type {Response[]} */
  const out = [];
  for (let i = 0; i < requests.length; i += Math.max(1, width)) {
    const wave = requests.slice(i, i + Math.max(1, width));
    journalAttempts(wave);
    out.push(...(await untilDeterminate(wave, await sendTogether(wave))));
  }
  return out;
}

/**
 * The parsed JSON body, or null.
 * @param {Response} res
 * @returns {any}
 */
export function bodyOf(res) {
  if (typeof res.body !== 'string' || res.body === '') return null;
  try {
    return JSON.parse(res.body);
  } catch {
    return null;
  }
}

/**
 * A batch item rejected with STORAGE_UNAVAILABLE: it may or may not have
 * been applied ([failure-indeterminate], [batch-items]).
 * @param {{ outcome: string, error?: { code: string } }} x
 */
export function itemIndeterminate(x) {
  return x.outcome === 'rejected' && x.error !== undefined && x.error.code === 'STORAGE_UNAVAILABLE';
}

/**
 * The item results of a batch answered 200, else none. An item rejected
 * with STORAGE_UNAVAILABLE may or may not have been applied
 * ([failure-indeterminate], [batch-items]): it marks the iteration.
 * @param {Response} res
 * @returns {{ index: number, outcome: string, error?: { code: string } }[]}
 */
export function batchResults(res) {
  if (!expectResponse(res, ['200'])) return [];
  const results = bodyOf(res).results;
  if (results.some(itemIndeterminate)) markUnjudgeable();
  return results;
}

/** @param {Response} res */
export function errorCodeOf(res) {
  const body = bodyOf(res);
  return body && body.error && typeof body.error.code === 'string' ? body.error.code : '';
}

let reported = 0;
/**
 * Per VU, the iteration that last got an answer leaving its outcome open
 * (markUnjudgeable). Keyed by VU: under k6 each VU has a module of its own,
 * but the Node runner's VUs share one.
 * @type {Map<number, string>}
 */
const unjudgeableIn = new Map();

/** This VU's number and current iteration; setup has none of its own. */
function iterationOf() {
  try {
    return { vu: exec.vu.idInTest, key: `${exec.scenario.name}/${exec.vu.iterationInInstance}` };
  } catch {
    return { vu: 0, key: 'setup' };
  }
}

/**
 * Whether this iteration got an answer that leaves its outcome open (an
 * indeterminate answer where it expected another, a request sent again after
 * one, a resolve still contended): whatever it checks afterwards may hinge
 * on a request that did or did not take effect ([failure-indeterminate]),
 * so a check that fails then is not judged (verify.js).
 */
export function unjudgeableThisIteration() {
  const now = iterationOf();
  return unjudgeableIn.get(now.vu) === now.key;
}

/**
 * Marks this iteration as one whose outcome is open: an answer it got may or
 * may not have taken effect (an item of a batch answered STORAGE_UNAVAILABLE,
 * a request sent again after a lost answer).
 */
export function markUnjudgeable() {
  const now = iterationOf();
  unjudgeableIn.set(now.vu, now.key);
}

/**
 * Whether the response is one the phase allows (a status, or status:CODE).
 * An indeterminate answer the phase does not allow is no failure by itself
 * ([failure-indeterminate]), nor is a resolve still refused for contention
 * after its retries ([route-contention]): either marks the iteration
 * instead. Anything else is counted as unexpected, and the first few are
 * printed.
 * @param {Response} res
 * @param {string[]} allowed e.g. ['200', '429:CAPACITY_EXCEEDED']
 */
export function expectResponse(res, allowed) {
  const code = res.status >= 400 ? errorCodeOf(res) : '';
  if (allowed.includes(String(res.status)) || (code && allowed.includes(`${res.status}:${code}`))) return true;
  if (indeterminate(res)) {
    indeterminateResponses.add(1, { status: String(res.status) });
    markUnjudgeable();
    return false;
  }
  if (contended(res)) {
    contentionRefusals.add(1);
    markUnjudgeable();
    return false;
  }
  unexpectedResponses.add(1, { status: String(res.status), code: code || 'none' });
  if (reported++ < 5) {
    const text = typeof res.body === 'string' ? res.body.slice(0, 300) : res.error;
    console.error(`unexpected response ${res.status} ${code} from ${res.url}: ${text}`);
  }
  return false;
}
