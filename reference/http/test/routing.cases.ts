// Catalog, routing, fleet and operations endpoints over HTTP: each one's
// success and the refusals it documents.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openApiDocument } from '../../../contract/openapi.ts';
import { b, expectError, expectOk, HOUR, seedFleet, type TestRegistry } from './support.ts';

export function routingCases(registry: () => TestRegistry): void {
  const dispatch = (api: TestRegistry, tenant: string) => api.token(['registry:dispatch'], tenant);

  it('[assignment-read] resolve, read and settle a route', async () => {
    const api = registry();
    const f = await seedFleet(api, 'route1', { tenantId: 'tenant-r1' });
    const token = await dispatch(api, f.tenantId);
    const resolved = expectOk(await api.call('resolveRoute', { token, body: { action_id: 'act-r1', capability_id: f.capabilityId } }));
    assert.equal(resolved.reserved, true);
    assert.equal(resolved.assignment.tenant_id, f.tenantId);
    assert.equal(resolved.assignment.replica_id, f.replicaIds[0]);
    assert.deepEqual(expectOk(await api.call('getRoute', { token, params: { action_id: 'act-r1' } })), resolved);
    const settled = expectOk(
      await api.call('settleRoute', {
        token,
        params: { action_id: 'act-r1' },
        body: { assignment: resolved.assignment, outcome: 'completed' },
      }),
    );
    assert.deepEqual(settled, { action_id: 'act-r1', released: true, last_settlement: 'completed' });
    const after = expectOk(await api.call('getRoute', { token, params: { action_id: 'act-r1' } }));
    assert.deepEqual(after, { ...resolved, reserved: false, last_settlement: 'completed' });
  });

  it('[settle-fence] settling with a different assignment is FENCE_LOST; an unknown action is NOT_FOUND', async () => {
    const api = registry();
    const f = await seedFleet(api, 'route2', { tenantId: 'tenant-r2' });
    const token = await dispatch(api, f.tenantId);
    const { assignment } = expectOk(
      await api.call('resolveRoute', { token, body: { action_id: 'act-r2', capability_id: f.capabilityId } }),
    );
    const forged = { ...assignment, fence_token: 'route_forged' };
    const params = { action_id: 'act-r2' };
    expectError(await api.call('settleRoute', { token, params, body: { assignment: forged, outcome: 'completed' } }), 409, 'FENCE_LOST');
    assert.equal(expectOk(await api.call('getRoute', { token, params })).reserved, true);
    expectError(
      await api.call('settleRoute', { token, params: { action_id: 'act-never' }, body: { assignment, outcome: 'completed' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api.call('getRoute', { token, params: { action_id: 'act-never' } }), 404, 'NOT_FOUND');
    expectError(await api.call('settleRoute', { token, params, body: { assignment, outcome: 'maybe' } }), 400, 'INVALID_REQUEST');
  });

  it('[route-binding-unavailable] a capability the tenant has no binding for is BINDING_UNAVAILABLE', async () => {
    const api = registry();
    const token = await dispatch(api, 'tenant-r3');
    const res = await api.call('resolveRoute', { token, body: { action_id: 'act-r3', capability_id: 'cap.unbound' } });
    expectError(res, 422, 'BINDING_UNAVAILABLE');
    assert.deepEqual(res.body.error.details, { tenant_id: 'tenant-r3', capability_id: 'cap.unbound' });
  });

  it('[route-replica-unavailable] a full replica is REPLICA_UNAVAILABLE naming the instance', async () => {
    const api = registry();
    const f = await seedFleet(api, 'route4', { tenantId: 'tenant-r4', capacity: 1 });
    const token = await dispatch(api, f.tenantId);
    expectOk(await api.call('resolveRoute', { token, body: { action_id: 'act-r4a', capability_id: f.capabilityId } }));
    const res = await api.call('resolveRoute', { token, body: { action_id: 'act-r4b', capability_id: f.capabilityId } });
    expectError(res, 503, 'REPLICA_UNAVAILABLE');
    assert.deepEqual(res.body.error.details, { instance_id: f.instanceId });
  });

  it('[error-capacity-guidance] CAPACITY_EXCEEDED carries retry_after_ms, the scope and a Retry-After header', async () => {
    const api = registry();
    const policy = b.policy('policy-r5', { max_tenant_in_flight: 1 });
    expectOk(await api.call('putAdmissionPolicy', { params: { policy_ref: policy.policy_ref }, body: policy }));
    const f = await seedFleet(api, 'route5', { tenantId: 'tenant-r5', quotaPolicyRef: policy.policy_ref });
    const token = await dispatch(api, f.tenantId);
    expectOk(await api.call('resolveRoute', { token, body: { action_id: 'act-r5a', capability_id: f.capabilityId } }));
    const res = await api.call('resolveRoute', { token, body: { action_id: 'act-r5b', capability_id: f.capabilityId } });
    expectError(res, 429, 'CAPACITY_EXCEEDED');
    assert.equal(res.body.error.retry_after_ms, 100);
    assert.deepEqual(res.body.error.details, { scope: 'tenant' });
    assert.equal(res.headers['retry-after'], '1');
  });

  it('[route-admission-policy] a disabled admission policy is ADMISSION_REJECTED', async () => {
    const api = registry();
    const policy = b.policy('policy-r6', { enabled: false });
    expectOk(await api.call('putAdmissionPolicy', { params: { policy_ref: policy.policy_ref }, body: policy }));
    const f = await seedFleet(api, 'route6', { tenantId: 'tenant-r6', quotaPolicyRef: policy.policy_ref });
    const res = await api.call('resolveRoute', {
      token: await dispatch(api, f.tenantId),
      body: { action_id: 'act-r6', capability_id: f.capabilityId },
    });
    expectError(res, 422, 'ADMISSION_REJECTED');
  });

  it('[pinned-conflict] resolving an action again with another capability is CONFLICT', async () => {
    const api = registry();
    const f = await seedFleet(api, 'route7', { tenantId: 'tenant-r7' });
    const token = await dispatch(api, f.tenantId);
    const first = expectOk(await api.call('resolveRoute', { token, body: { action_id: 'act-r7', capability_id: f.capabilityId } }));
    assert.deepEqual(
      expectOk(await api.call('resolveRoute', { token, body: { action_id: 'act-r7', capability_id: f.capabilityId } })),
      first,
    );
    expectError(await api.call('resolveRoute', { token, body: { action_id: 'act-r7', capability_id: 'cap.other' } }), 409, 'CONFLICT');
  });

  it('[route-request] a route request naming a replica or a tenant is INVALID_REQUEST', async () => {
    const api = registry();
    const f = await seedFleet(api, 'route8', { tenantId: 'tenant-r8' });
    const token = await dispatch(api, f.tenantId);
    for (const extra of [{ replica_id: f.replicaIds[0] }, { tenant_id: 'tenant-other' }, { endpoint: 'https://x.invalid/' }]) {
      const res = await api.call('resolveRoute', { token, body: { action_id: 'act-r8', capability_id: f.capabilityId, ...extra } });
      expectError(res, 400, 'INVALID_REQUEST');
    }
    expectError(await api.call('getRoute', { token, params: { action_id: 'act-r8' } }), 404, 'NOT_FOUND');
  });

  it('[page-cursor] catalog pages walk with a cursor; a cursor from another revision is STALE_CURSOR', async () => {
    const api = registry();
    await seedFleet(api, 'cat1a', { tenantId: 'tenant-c1' });
    await seedFleet(api, 'cat1b', { tenantId: 'tenant-c1' });
    const token = await api.token([], 'tenant-c1');
    const first = expectOk(await api.call('queryCatalog', { token, query: { limit: 1 } }));
    assert.equal(first.total, 2);
    assert.deepEqual(
      first.capabilities.map((c: { capability: { id: string } }) => c.capability.id),
      ['cap.cat1a.run'],
    );
    const second = expectOk(await api.call('queryCatalog', { token, query: { limit: 1, cursor: first.next_cursor } }));
    assert.deepEqual(
      second.capabilities.map((c: { capability: { id: string } }) => c.capability.id),
      ['cap.cat1b.run'],
    );
    assert.equal(second.next_cursor, null);
    const type = b.connectorType('ctype_cat1_bump');
    expectOk(await api.call('putConnectorType', { params: { type_id: type.id }, body: type }));
    expectError(await api.call('queryCatalog', { token, query: { limit: 1, cursor: first.next_cursor } }), 409, 'STALE_CURSOR');
    expectError(await api.call('queryCatalog', { token, query: { cursor: 'garbage' } }), 400, 'INVALID_REQUEST');
    expectError(await api.call('queryCatalog', { token, query: { limit: 0 } }), 400, 'INVALID_REQUEST');
    expectError(await api.call('queryCatalog', { token, query: { limit: 100000 } }), 400, 'INVALID_REQUEST');
    expectError(await api.call('queryCatalog', { token, query: { unbound: 'yes' } }), 400, 'INVALID_REQUEST');
  });

  it('[catalog-get] one capability by id: visible to its tenant, NOT_FOUND otherwise', async () => {
    const api = registry();
    const f = await seedFleet(api, 'cat2', { tenantId: 'tenant-c2' });
    const params = { capability_id: f.capabilityId };
    const got = expectOk(await api.call('getCatalogCapability', { token: await api.token([], f.tenantId), params }));
    assert.equal(got.definition.capability.id, f.capabilityId);
    expectError(await api.call('getCatalogCapability', { token: await api.token([], 'tenant-other'), params }), 404, 'NOT_FOUND');
  });

  it('[lease-expiry-bounded] fleet status and bounded lease expiry', async () => {
    const api = registry();
    const f = await seedFleet(api, 'fleet1', { tenantId: 'tenant-f1', replicas: 2 });
    const operator = await api.token(['registry:operator']);
    const before = expectOk(await api.call('getFleetStatus', { token: operator }));
    assert.ok(before.ready_replicas >= 2);
    api.clock.advance(2 * HOUR);
    const expired = [];
    for (;;) {
      const res = expectOk(await api.call('expireLeases', { token: operator, body: { limit: 1 } }));
      expired.push(res.expired);
      if (res.expired < 1) break;
    }
    assert.ok(expired.length >= 3, 'one replica per call');
    assert.equal(expectOk(await api.call('getReplica', { params: { replica_id: f.replicaIds[0]! } })).status, 'offline');
    const after = expectOk(await api.call('getFleetStatus', { token: operator }));
    assert.equal(after.ready_replicas, 0);
    expectError(await api.call('expireLeases', { token: operator, body: { limit: 0 } }), 400, 'INVALID_REQUEST');
  });

  it('[ops-health] health, readiness, version, the OpenAPI document and metrics need no token', async () => {
    const api = registry();
    assert.deepEqual(expectOk(await api.call('getHealth', { token: null })), { status: 'ok' });
    assert.deepEqual(expectOk(await api.call('getReady', { token: null })), { status: 'ready' });
    const version = expectOk(await api.call('getVersionInfo', { token: null }));
    assert.equal(version.contract, 'fleetproof-registry/v1');
    assert.deepEqual(version.features, ['metrics']);
    assert.deepEqual(expectOk(await api.call('getOpenApi', { token: null })), JSON.parse(JSON.stringify(openApiDocument())));
    const metrics = await api.call('getMetrics', { token: null });
    assert.equal(metrics.status, 200);
    assert.match(String(metrics.headers['content-type']), /^text\/plain/);
    assert.match(metrics.text, /^fleetproof_http_requests_total\{operation="getHealth",status="200"\} [1-9]/m);
    assert.match(metrics.text, /^fleetproof_http_request_duration_seconds_count\{operation="getReady"\} [1-9]/m);
    assert.match(metrics.text, /^fleetproof_fleet_catalog_revision \d+$/m);
    // Buckets are cumulative and end at the count.
    const buckets = [
      ...metrics.text.matchAll(/^fleetproof_http_request_duration_seconds_bucket\{operation="getHealth",le="([^"]+)"\} (\d+)$/gm),
    ];
    const counts = buckets.map((m) => Number(m[2]));
    assert.equal(buckets.at(-1)?.[1], '+Inf');
    assert.deepEqual(
      counts,
      [...counts].sort((x, y) => x - y),
    );
    assert.match(
      metrics.text,
      new RegExp(`^fleetproof_http_request_duration_seconds_count\\{operation="getHealth"\\} ${counts.at(-1)}$`, 'm'),
    );
  });
}
