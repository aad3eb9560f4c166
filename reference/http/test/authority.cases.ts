// Authority over HTTP (spec.md §3): roles per operation and per batch item,
// tenant authority from the token alone, route isolation between tenants, the
// catalog contexts, and refusal before any state is read.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { b, expectError, expectOk, seedFleet, type TestRegistry } from './support.ts';

export function authorityCases(registry: () => TestRegistry): void {
  it('[auth-before-state] an unauthenticated or unauthorised read of a missing record is 401 or 403, never 404', async () => {
    const api = registry();
    const params = { replica_id: 'crepl_does_not_exist' };
    expectError(await api.call('getReplica', { params, token: null }), 401, 'UNAUTHENTICATED');
    expectError(await api.call('getReplica', { params, token: await api.token(['registry:admin']) }), 403, 'FORBIDDEN');
    expectError(await api.call('getReplica', { params }), 404, 'NOT_FOUND');
  });

  it('[auth-before-state] a malformed body from a caller without the role is 403, not 400', async () => {
    const api = registry();
    const token = await api.token(['registry:reader']);
    expectError(await api.call('putConnectorType', { params: { type_id: 'ctype_x' }, token, body: '{not json' }), 403, 'FORBIDDEN');
    expectError(
      await api.call('putConnectorType', { params: { type_id: 'ctype_x' }, token: null, body: '{not json' }),
      401,
      'UNAUTHENTICATED',
    );
    const batch = await api.call('applyBatch', { token, body: '{not json' });
    expectError(batch, 403, 'FORBIDDEN');
  });

  it('[batch-roles] a batch needing a role the token lacks is refused whole, before any item applies', async () => {
    const api = registry();
    const f = await seedFleet(api, 'auth1');
    const type = b.connectorType('ctype_auth1_new');
    const replica = b.replica('crepl_auth1_new', f.instanceId, f.versionId, api.clock.now() + 3_600_000);
    const items = [
      { op: 'put_connector_type', record: type },
      { op: 'provision_replica', record: replica },
    ];
    const revision = await api.store.catalogRevision();
    expectError(await api.call('applyBatch', { token: await api.token(['registry:admin']), body: { items } }), 403, 'FORBIDDEN');
    expectError(await api.call('applyBatch', { token: await api.token(['registry:lifecycle']), body: { items } }), 403, 'FORBIDDEN');
    assert.equal(await api.store.catalogRevision(), revision);
    assert.equal(await api.store.getConnectorType(type.id), null);
    assert.equal(await api.store.getReplica(replica.id), null);
    const both = await api.token(['registry:admin', 'registry:lifecycle']);
    const res = expectOk(await api.call('applyBatch', { token: both, body: { items } }));
    assert.deepEqual(
      res.results.map((r: { outcome: string }) => r.outcome),
      ['applied', 'applied'],
    );
  });

  it('[auth-dispatch-needs-tenant] resolve, route reads and settlement refuse a dispatch token without a tenant', async () => {
    const api = registry();
    const token = await api.token(['registry:dispatch']);
    expectError(await api.call('resolveRoute', { token, body: { action_id: 'a1', capability_id: 'cap.x' } }), 403, 'FORBIDDEN');
    expectError(await api.call('getRoute', { token, params: { action_id: 'a1' } }), 403, 'FORBIDDEN');
    expectError(await api.call('settleRoute', { token, params: { action_id: 'a1' }, body: {} }), 403, 'FORBIDDEN');
  });

  it('[auth-route-isolation] another tenant can neither read nor settle a route, and it stays as it was', async () => {
    const api = registry();
    const f = await seedFleet(api, 'auth2', { tenantId: 'tenant-owner' });
    const owner = await api.token(['registry:dispatch'], 'tenant-owner');
    const intruder = await api.token(['registry:dispatch'], 'tenant-intruder');
    const view = expectOk(
      await api.call('resolveRoute', { token: owner, body: { action_id: 'act-auth2', capability_id: f.capabilityId } }),
    );
    const params = { action_id: 'act-auth2' };
    expectError(await api.call('getRoute', { token: intruder, params }), 404, 'NOT_FOUND');
    const never = await api.call('getRoute', { token: intruder, params: { action_id: 'act-auth2-never' } });
    expectError(never, 404, 'NOT_FOUND');
    for (const outcome of ['completed', 'outcome_unknown']) {
      expectError(
        await api.call('settleRoute', { token: intruder, params, body: { assignment: view.assignment, outcome } }),
        404,
        'NOT_FOUND',
      );
    }
    assert.deepEqual(expectOk(await api.call('getRoute', { token: owner, params })), view);
    assert.equal((await api.store.getReplica(f.replicaIds[0]!))!.active_assignments, 1);
  });

  it('[auth-tenant-from-token] the tenant of a route is the token tenant; bodies cannot name one', async () => {
    const api = registry();
    const f = await seedFleet(api, 'auth3', { tenantId: 'tenant-auth3' });
    const other = await api.token(['registry:dispatch'], 'tenant-auth3-other');
    const body = { action_id: 'act-auth3', capability_id: f.capabilityId, tenant_id: f.tenantId };
    expectError(await api.call('resolveRoute', { token: other, body }), 400, 'INVALID_REQUEST');
    const { tenant_id: _t, ...withoutTenant } = body;
    expectError(await api.call('resolveRoute', { token: other, body: withoutTenant }), 422, 'BINDING_UNAVAILABLE');
    assert.equal(await api.store.route(f.tenantId, 'act-auth3'), null);
  });

  it('[catalog-tenant-visibility] catalog contexts come from the token: tenant, internal, or none', async () => {
    const api = registry();
    const f = await seedFleet(api, 'auth4', { tenantId: 'tenant-auth4' });
    const ids = (page: { capabilities: Array<{ capability: { id: string } }> }) => page.capabilities.map((c) => c.capability.id);
    const query = { capability_id: f.capabilityId };
    const tenant = expectOk(await api.call('queryCatalog', { token: await api.token([], f.tenantId), query }));
    assert.deepEqual(ids(tenant), [f.capabilityId]);
    const stranger = expectOk(await api.call('queryCatalog', { token: await api.token([], 'tenant-stranger'), query }));
    assert.deepEqual(ids(stranger), []);
    // [catalog-tenant-precedence]: a tenant claim wins over internal + unbound.
    const strangerInternal = await api.token(['registry:internal'], 'tenant-stranger');
    assert.deepEqual(ids(expectOk(await api.call('queryCatalog', { token: strangerInternal, query: { ...query, unbound: true } }))), []);
    expectError(
      await api.call('getCatalogCapability', {
        token: strangerInternal,
        params: { capability_id: f.capabilityId },
        query: { unbound: true },
      }),
      404,
      'NOT_FOUND',
    );
    // [catalog-internal]: no tenant, the internal role and unbound=true.
    const internal = await api.token(['registry:internal']);
    assert.deepEqual(ids(expectOk(await api.call('queryCatalog', { token: internal, query: { ...query, unbound: true } }))), [
      f.capabilityId,
    ]);
    const got = await api.call('getCatalogCapability', {
      token: internal,
      params: { capability_id: f.capabilityId },
      query: { unbound: true },
    });
    assert.equal(expectOk(got).definition.capability.id, f.capabilityId);
    const noRole = await api.token(['registry:reader']);
    expectError(await api.call('queryCatalog', { token: noRole, query: { unbound: true } }), 403, 'FORBIDDEN');
    expectError(
      await api.call('getCatalogCapability', { token: noRole, params: { capability_id: f.capabilityId }, query: { unbound: true } }),
      403,
      'FORBIDDEN',
    );
    // [catalog-no-context]: neither a tenant nor an unbound read.
    const none = expectOk(await api.call('queryCatalog', { token: internal, query }));
    assert.deepEqual(none, { ...none, capabilities: [], total: 0, next_cursor: null });
    expectError(await api.call('getCatalogCapability', { token: internal, params: { capability_id: f.capabilityId } }), 404, 'NOT_FOUND');
  });
}
