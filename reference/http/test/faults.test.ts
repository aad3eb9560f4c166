// The one deliberate defect the server itself carries: `tenant-from-body`
// breaks [auth-tenant-from-token] so the conformance suite can prove it
// catches a registry that trusts a body field for tenant authority.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectOk, seedFleet, TestRegistry } from './support.ts';

describe('server faults', () => {
  it('[auth-tenant-from-token] under tenant-from-body a routing body names the tenant, and the route lands there', async () => {
    const api = await TestRegistry.start({ faults: ['tenant-from-body'] });
    try {
      const victim = await seedFleet(api, 'fault1', { tenantId: 'tenant-victim' });
      const attacker = await api.token(['registry:dispatch'], 'tenant-attacker');
      const body = { action_id: 'act-fault1', capability_id: victim.capabilityId, tenant_id: victim.tenantId };
      const view = expectOk(await api.call('resolveRoute', { token: attacker, body }));
      assert.equal(view.assignment.tenant_id, victim.tenantId);
      assert.notEqual(await api.store.route(victim.tenantId, 'act-fault1'), null);
      const settle = { assignment: view.assignment, outcome: 'completed', tenant_id: victim.tenantId };
      assert.equal(
        expectOk(await api.call('settleRoute', { token: attacker, params: { action_id: 'act-fault1' }, body: settle })).released,
        true,
      );
    } finally {
      await api.close();
    }
  });
});
