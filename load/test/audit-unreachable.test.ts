// A target that goes away before or during the audit: every read the audit
// could not make is an error, never a violation, and the run could not judge.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { generateSigningKeys, signingKeyFromJwk } from '../../contract/tokens.ts';
import { auditRun } from '../runner/audit.ts';
import { parseJournal } from '../runner/journal.ts';
import { buildRunPlan, tenantId } from '../runner/run-plan.ts';
import { loadScaleContract, resolveProfile } from '../runner/scale-contract.ts';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('reads the audit could not make are errors, not violations', async () => {
  const key = await signingKeyFromJwk((await generateSigningKeys()).privateJwk);
  const profile = resolveProfile(loadScaleContract(), 'smoke');
  const plan = await buildRunPlan({ target: `http://127.0.0.1:${await closedPort()}`, profile, key });
  const route = { k: 'route', phase: 'concurrent_routes', action_id: 'act-1', tenant_id: tenantId(plan.run_id, 1), replica_id: 'crepl_x', instance_id: 'cinst_x', fence_token: 'f', credential_revision_ref: null, digest: 'd', scopes: [] };
  const journal = parseJournal(`fleetproof-journal ${JSON.stringify({ t: 0, ...route })}`);
  const { result } = await auditRun({ plan, journal, replicaIds: ['crepl_a', 'crepl_b'] });
  assert.equal(result.ok, false, 'an audit that read nothing is no pass');
  assert.ok((result.unread ?? 0) > 0 && result.errors.every((e) => /no answer/.test(e)), result.errors.join('\n'));
  assert.deepEqual(result.invariants.map((i) => [i.id, i.violations]).filter(([, v]) => v !== 0), [], 'nothing unread counts as a violation');
});
