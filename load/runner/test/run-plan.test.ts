// A run plan built from credentials the vendor brings: each caller's token is
// asked of the token command once, before the run, and static headers travel
// in the plan for the scripts and the audit, with no signing key at all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadScaleContract, resolveProfile } from '../scale-contract.ts';
import { planTransport } from '../plan-transport.ts';
import { buildRunPlan, tenantId } from '../run-plan.ts';

const profile = resolveProfile(loadScaleContract(), 'smoke', ['tenants=2', 'sustained_routes.routing_tenants=1']);
const echo = `${JSON.stringify(process.execPath)} -e "process.stdout.write('tok:' + process.argv[1] + ':' + process.argv[2])" {roles} {tenant}`;

test('a token command gives every caller of the plan its token; static headers ride along', async () => {
  const plan = await buildRunPlan({
    target: 'http://127.0.0.1:9',
    profile,
    key: null,
    auth: { tokenCommand: echo, headers: ['X-Vendor: v1'] },
    runId: 'r1',
  });
  assert.equal(plan.tokens.control, 'tok:registry:admin,registry:lifecycle,registry:operator,registry:reader:');
  assert.deepEqual(plan.tokens.tenants, [`tok:registry:dispatch:${tenantId('r1', 1)}`, `tok:registry:dispatch:${tenantId('r1', 2)}`]);
  assert.deepEqual(plan.headers, { 'x-vendor': 'v1' });
});

test('static headers alone authenticate: the plan holds no tokens and the audit sends the headers only', async () => {
  const plan = await buildRunPlan({ target: 'http://127.0.0.1:9', profile, key: null, auth: { headers: ['X-Api-Key: k'] }, runId: 'r2' });
  assert.deepEqual(plan.tokens, { control: '', tenants: ['', ''] });
  const sent: Array<Record<string, string>> = [];
  const transport = planTransport(plan, 1).with({ record: (e) => sent.push(e.request.headers) });
  await transport.send({ method: 'GET', path: '/version', as: { roles: ['registry:reader'] } }).catch(() => {});
  await transport.close();
  assert.equal(sent[0]?.['x-api-key'] !== undefined, true);
  assert.equal(sent[0]?.['authorization'], undefined);
});

test('without a key or credentials of its own a plan cannot be made', async () => {
  await assert.rejects(buildRunPlan({ target: 'http://127.0.0.1:9', profile, key: null }), /no signing key and no --token-cmd or --header/);
});
