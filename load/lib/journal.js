// The run journal: facts the audit and the report need that k6's end-of-test
// summary cannot carry (each route as first seen, replicas observed, replicas
// deliberately expired, raw latencies of the barrier phases). One JSON line
// per fact on the console, which `fleetproof load` sends to a file
// (k6 --console-output with --log-format raw, or the Node runner's console).
import { canonicalJson } from '../../contract/canonical-json.js';
import { sha256Hex } from './plan.js';

export const JOURNAL_PREFIX = 'fleetproof-journal ';

/** @param {Record<string, unknown>} fact */
export function journal(fact) {
  console.log(JOURNAL_PREFIX + JSON.stringify({ t: Date.now(), ...fact }));
}

/**
 * A route as the registry first returned it; the audit re-reads it later and
 * compares the digest.
 * @param {string} phase
 * @param {import('../../contract/records.ts').RouteAssignment} a
 */
export function journalRoute(phase, a) {
  const scopes = a.admission.base_scopes.map((s) => [s.kind, s.key]);
  if (a.admission.retry_scope) scopes.push([a.admission.retry_scope.kind, a.admission.retry_scope.key]);
  journal({
    k: 'route',
    phase,
    action_id: a.action_id,
    tenant_id: a.tenant_id,
    replica_id: a.replica_id,
    instance_id: a.instance_id,
    fence_token: a.fence_token,
    credential_revision_ref: a.credential_revision_ref,
    digest: sha256Hex(canonicalJson(a)),
    scopes,
  });
}

/**
 * @param {string} phase
 * @param {string} operation
 * @param {number[]} ms
 */
export function journalLatencies(phase, operation, ms) {
  journal({ k: 'latency', phase, operation, ms: ms.map((v) => Math.round(v * 1000) / 1000) });
}
