// The model's own rules, checked on examples worked out from spec.md: a model
// that is wrong makes every property suite wrong with it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteAssignment } from '../../contract/records.ts';
import { bindingKey, counterOf, type ModelState } from '../model/model-state.ts';
import { visibleCapabilities } from '../model/rules/catalog.ts';
import { putBinding, putInstance, putPolicy, reportHealth } from '../model/rules/records.ts';
import { resolveExisting, resolveNew } from '../model/rules/routing.ts';
import { bindingScopeKey } from '../model/rules/scopes.ts';
import { decisionInstants, expireLeases, settle } from '../model/rules/settlement.ts';
import { seedItems, stateAfterSeed } from '../model/seed-fleet.ts';
import { DEFAULT_LIMITS } from '../../contract/records.ts';
import { T0, universeOf } from '../targets/target.ts';

const u = universeOf('', DEFAULT_LIMITS);
const fresh = (): ModelState => stateAfterSeed(seedItems(u, T0), 1);
const at = { lo: T0, hi: T0 };

function routeNew(
  s: ModelState,
  action: string,
  capability = u.capability('search'),
  tenant = u.tenant('a'),
): { s: ModelState; a: RouteAssignment } {
  const [branch] = resolveNew(s, tenant, { action_id: action, capability_id: capability }, T0);
  assert.ok(branch?.outcome.ok, JSON.stringify(branch?.outcome));
  const a = { ...branch.outcome.value, fence_token: `route_${action}`, assigned_at: new Date(T0).toISOString() };
  branch.state.routes[action]!.assignment = a;
  return { s: branch.state, a };
}

describe('model rules', () => {
  it('[route-order] a new route may land on either equally ranked replica of the first binding, never the second binding', () => {
    const branches = resolveNew(fresh(), u.tenant('a'), { action_id: 'act', capability_id: u.capability('search') }, T0);
    const replicas = branches.map((b) => (b.outcome.ok ? b.outcome.value.replica_id : b.outcome.code)).sort();
    assert.deepEqual(replicas, [u.replica('a-alpha', 1), u.replica('a-alpha', 2)]);
  });

  it('[admission-scopes] a new route under the tight policy pins five scopes and the retry scope, in order', () => {
    const { a } = routeNew(fresh(), 'act');
    assert.deepEqual(
      a.admission.base_scopes.map((s) => `${s.kind}:${s.limit}`),
      ['global:8', 'tenant:4', 'connector_type:5', 'instance:3', 'binding:2'],
    );
    assert.equal(a.admission.base_scopes[4]!.key, bindingScopeKey(u.tenant('a'), u.capability('search'), u.instance('a-alpha')));
    assert.deepEqual(a.admission.retry_scope, { kind: 'tenant_retry', key: u.tenant('a'), limit: 1 });
  });

  it('[admission-all-or-nothing] the third route on a binding limited to two is CAPACITY_EXCEEDED naming the binding scope', () => {
    let s = routeNew(fresh(), 'one').s;
    s = routeNew(s, 'two').s;
    const branches = resolveNew(s, u.tenant('a'), { action_id: 'three', capability_id: u.capability('search') }, T0);
    assert.deepEqual(
      branches.map((b) => b.outcome),
      [{ ok: false, code: 'CAPACITY_EXCEEDED', details: { scope: 'binding' } }],
    );
  });

  it('[error-precedence] a new route through a disabled policy whose scope is full may be ADMISSION_REJECTED or CAPACITY_EXCEEDED', () => {
    let s = routeNew(fresh(), 'one').s;
    s = routeNew(s, 'two').s;
    const tight = s.policies[u.policy('tight')]!;
    s = putPolicy(s, { ...tight, enabled: false, revision: tight.revision + 1 })[0]!.state;
    const branches = resolveNew(s, u.tenant('a'), { action_id: 'three', capability_id: u.capability('search') }, T0);
    assert.deepEqual(
      branches.map((b) => b.outcome),
      [
        { ok: false, code: 'ADMISSION_REJECTED' },
        { ok: false, code: 'CAPACITY_EXCEEDED', details: { scope: 'binding' } },
      ],
    );
  });

  it('[pinned-precedence] a retry checks scopes before the replica: both failing is CAPACITY_EXCEEDED', () => {
    let { s, a } = routeNew(fresh(), 'act');
    s = settle(s, a.tenant_id, 'act', a, 'completed', at)[0]!.state;
    const other = routeNew(s, 'other');
    s = resolveExisting(other.s, a.tenant_id, { action_id: 'other', capability_id: a.capability_id }, T0)[0]!.state;
    const otherA = other.a;
    s = settle(s, otherA.tenant_id, 'other', otherA, 'completed', at)[0]!.state;
    s = resolveExisting(s, a.tenant_id, { action_id: 'other', capability_id: a.capability_id }, T0)[0]!.state; // a retry holds the retry scope
    const replica = s.replicas[a.replica_id]!;
    replica.health = { ...replica.health, status: 'offline' };
    const [branch] = resolveExisting(s, a.tenant_id, { action_id: 'act', capability_id: a.capability_id }, T0);
    assert.deepEqual(branch!.outcome, { ok: false, code: 'CAPACITY_EXCEEDED', details: { scope: 'tenant_retry' } });
  });

  it('[pinned-replica-conditions] after a rollout a retry is REPLICA_UNAVAILABLE naming the pinned instance', () => {
    let { s, a } = routeNew(fresh(), 'act');
    s = settle(s, a.tenant_id, 'act', a, 'completed', at)[0]!.state;
    const instance = s.instances[a.instance_id]!;
    const [rolled] = putInstance(s, { ...instance, version_id: u.version('alpha-2'), config_revision: 2 });
    assert.deepEqual(rolled!.outcome, { ok: true, value: 'applied' });
    const [retry] = resolveExisting(rolled!.state, a.tenant_id, { action_id: 'act', capability_id: a.capability_id }, T0);
    assert.deepEqual(retry!.outcome, { ok: false, code: 'REPLICA_UNAVAILABLE', details: { instance_id: a.instance_id } });
  });

  it('[settle-release-once] and [settle-idempotent]: one release, then replays change nothing', () => {
    const { s, a } = routeNew(fresh(), 'act');
    const released = settle(s, a.tenant_id, 'act', a, 'cancelled', at)[0]!;
    assert.deepEqual(released.outcome, { ok: true, value: { action_id: 'act', released: true, last_settlement: 'cancelled' } });
    assert.equal(counterOf(released.state, 'binding', a.admission.base_scopes[4]!.key), 0);
    const replay = settle(released.state, a.tenant_id, 'act', a, 'completed', at)[0]!;
    assert.deepEqual(replay.outcome, { ok: true, value: { action_id: 'act', released: false, last_settlement: 'cancelled' } });
    assert.deepEqual(replay.state, released.state);
  });

  it('[settle-fence] an altered assignment is FENCE_LOST; another tenant is NOT_FOUND', () => {
    const { s, a } = routeNew(fresh(), 'act');
    assert.equal(settle(s, a.tenant_id, 'act', { ...a, catalog_revision: a.catalog_revision + 1 }, 'completed', at)[0]!.outcome.ok, false);
    assert.deepEqual(settle(s, u.tenant('b'), 'act', a, 'completed', at)[0]!.outcome, { ok: false, code: 'NOT_FOUND' });
  });

  it('[circuit-opens] the second unknown outcome under threshold 2 opens the circuit for the pinned period', () => {
    let { s, a } = routeNew(fresh(), 'act');
    s = settle(s, a.tenant_id, 'act', a, 'outcome_unknown', at)[0]!.state;
    assert.equal(s.replicas[a.replica_id]!.openUntil, 0);
    s = resolveExisting(s, a.tenant_id, { action_id: 'act', capability_id: a.capability_id }, T0)[0]!.state;
    s = settle(s, a.tenant_id, 'act', a, 'outcome_unknown', { lo: T0 + 5, hi: T0 + 5 })[0]!.state;
    assert.deepEqual([s.replicas[a.replica_id]!.failures, s.replicas[a.replica_id]!.openUntil], [2, T0 + 5 + 300]);
    assert.deepEqual(decisionInstants(s, { lo: T0, hi: T0 + 400 }), [T0, T0 + 305]);
  });

  it('[lease-expiry-bounded] expiry takes the earliest lease first and no more than the limit', () => {
    const s = fresh();
    for (const [id, ms] of [
      [u.replica('b-alpha', 2), T0 - 5],
      [u.replica('a-beta', 1), T0 - 9],
    ] as const) {
      const r = s.replicas[id]!;
      const [b] = reportHealth(s, id, { ...r.health, health_revision: 2, lease_expires_at: new Date(ms).toISOString() });
      assert.equal(b!.outcome.ok, true);
    }
    const [once] = expireLeases(s, 1, T0, T0 + 3);
    assert.deepEqual(once!.outcome, { ok: true, value: { expired: 1 } });
    assert.equal(once!.state.replicas[u.replica('a-beta', 1)]!.health.status, 'offline');
    assert.equal(
      once!.state.replicas[u.replica('a-beta', 1)]!.leaseNoLaterThan,
      T0 + 3,
      '[lease-expiry-effect]: any lease up to the last instant expiry could act at',
    );
    assert.equal(once!.state.replicas[u.replica('b-alpha', 2)]!.health.status, 'ready');
  });

  it('[catalog-tenant-visibility] and [records-binding-references]: a binding shows only what the instance’s active version implements', () => {
    const s = fresh();
    assert.deepEqual(visibleCapabilities(s, u.tenant('b')), [u.capability('fetch'), u.capability('search')]);
    const notify = {
      ...s.bindings[bindingKey({ tenant_id: u.tenant('a'), capability_id: u.capability('search'), instance_id: u.instance('a-alpha') })]!,
      capability_id: u.capability('notify'),
      tenant_id: u.tenant('b'),
      instance_id: u.instance('b-alpha'),
    };
    assert.deepEqual(
      putBinding(s, notify).map((b) => b.outcome),
      [{ ok: false, code: 'INVALID_REQUEST' }],
    );
  });
});
