// The HTTP defects act in front of the server as they say, over a real
// connection: what a request carries reaches the store the defect's way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectOk, seedFleet, TestRegistry } from '../../http/test/support.ts';
import { defectNamed } from '../catalogue.ts';

describe('HTTP defects', () => {
  it('tenant-from-body: a routing body names the tenant, and the route lands there', async () => {
    const api = await TestRegistry.start({ assembly: (await defectNamed('tenant-from-body')).assemble() });
    try {
      const victim = await seedFleet(api, 'defect1', { tenantId: 'tenant-victim' });
      const attacker = await api.token(['registry:dispatch'], 'tenant-attacker');
      const body = { action_id: 'act-defect1', capability_id: victim.capabilityId, tenant_id: victim.tenantId };
      const view = expectOk(await api.call('resolveRoute', { token: attacker, body }));
      assert.equal(view.assignment.tenant_id, victim.tenantId);
      assert.notEqual(await api.store.route(victim.tenantId, 'act-defect1'), null);
      const settle = { assignment: view.assignment, outcome: 'completed', tenant_id: victim.tenantId };
      assert.equal(
        expectOk(await api.call('settleRoute', { token: attacker, params: { action_id: 'act-defect1' }, body: settle })).released,
        true,
      );
    } finally {
      await api.close();
    }
  });
});
