// A target that goes away before or during the audit: every read the audit
// could not make is an error, never a violation, and the run could not judge.
// One that goes away after it leaves the audit's verdict standing; an
// abandoned action the runner could never settle leaves no baseline judged.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { generateSigningKeys, loadSigningKey, signingKeyFromJwk } from '../../contract/tokens.ts';
import { auditRun } from '../runner/audit.ts';
import { runLoad } from '../runner/run-load.ts';
import { settleAbandoned } from '../runner/settle-abandoned.ts';
import { parseJournal } from '../runner/journal.ts';
import { buildRunPlan, tenantId } from '../runner/run-plan.ts';
import { loadScaleContract, resolveProfile } from '../runner/scale-contract.ts';
import { startFront } from './front.ts';
import { startTarget } from './in-process-target.ts';

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
  const route = {
    k: 'route',
    phase: 'concurrent_routes',
    action_id: 'act-1',
    tenant_id: tenantId(plan.run_id, 1),
    replica_id: 'crepl_x',
    instance_id: 'cinst_x',
    fence_token: 'f',
    credential_revision_ref: null,
    digest: 'd',
    scopes: [],
  };
  const journal = parseJournal(`fleetproof-journal ${JSON.stringify({ t: 0, ...route })}`);
  const { result } = await auditRun({ plan, journal, replicaIds: ['crepl_a', 'crepl_b'] });
  assert.equal(result.ok, false, 'an audit that read nothing is no pass');
  assert.ok((result.unread ?? 0) > 0 && result.errors.every((e) => /no answer/.test(e)), result.errors.join('\n'));
  assert.deepEqual(
    result.invariants.map((i) => [i.id, i.violations]).filter(([, v]) => v !== 0),
    [],
    'nothing unread counts as a violation',
  );
});

test('a target that goes away after the audit leaves the audit standing; the retirement says it stopped', async (t) => {
  const target = await startTarget(new MemoryStore());
  t.after(() => target.close());
  // Retirement disables the run's connector types in a batch; that connection is dropped unanswered.
  const front = await startFront(target.url, (_req, body) => (body.includes('"set_connector_type_enabled"') ? { drop: true } : null));
  t.after(() => front.close());
  const outcome = await runLoad({
    target: front.url,
    keyPath: target.keyPath,
    profile: 'smoke',
    phases: ['catalog_walk'],
    engine: 'node',
    quiet: true,
    outDir: join(target.dir, 'report'),
    writeReport: writeLoadReport,
  });
  const report = outcome.report!;
  assert.ok(report.audit, report.reasons.join('; '));
  assert.equal(report.audit.ok, true);
  assert.equal(report.verdict, 'pass', report.reasons.join('; '));
  assert.match(report.retirement?.error ?? '', /^\d+ of \d+ retirement writes not sent: /);
  assert.match(
    await readFile(join(target.dir, 'report', 'report.md'), 'utf8'),
    /Retirement stopped early \(\d+ of \d+ retirement writes not sent/,
  );
});

test('an abandoned action whose route never answers is sent again, then left unsettled: no baseline is judged, and the audit says why', async (t) => {
  const target = await startTarget(new MemoryStore());
  t.after(() => target.close());
  // Every read of that one route is answered as storage trouble.
  const front = await startFront(target.url, (req) =>
    req.url === '/v1/routes/act-stuck' ? { answer: 503, code: 'STORAGE_UNAVAILABLE' } : null,
  );
  t.after(() => front.close());
  const profile = resolveProfile(loadScaleContract(), 'smoke');
  const plan = await buildRunPlan({ target: front.url, profile, key: await loadSigningKey(target.keyPath) });
  const journal = parseJournal(
    `fleetproof-journal ${JSON.stringify({ t: 0, k: 'indeterminate', operation: 'resolve', action_id: 'act-stuck', tenant: 1 })}`,
  );
  const { unsettled } = await settleAbandoned(plan, journal);
  assert.deepEqual(unsettled, ['act-stuck']);
  const { result } = await auditRun({ plan, journal, replicaIds: [], unsettled });
  assert.equal(result.ok, false, 'an audit that could not judge the baseline is no pass');
  assert.ok(
    result.errors.some((e) => /1 action\(s\) left reserved could not be settled before the audit/.test(e)),
    result.errors.join('\n'),
  );
  assert.deepEqual(
    result.invariants.filter((i) => i.id === 'counters_at_baseline' || i.id === 'replicas_at_baseline').map((i) => i.checked),
    [0, 0],
    'no baseline was judged',
  );
});
