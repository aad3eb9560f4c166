// The routing decisions both stores share: the path a resolve or settlement
// takes and the refusal it gives, from the facts a store read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteAssignment } from '../../../contract/records.ts';
import { buildReservation, IMPLICIT_DEFAULT_POLICY } from '../admission.ts';
import type { RegistryError } from '../../../contract/registry-error.ts';
import {
  capacityRefusal,
  newRouteScopes,
  noReplicaRefusal,
  pinnedRouteUsable,
  reacquireRefusal,
  resolvePath,
} from '../resolve-decision.ts';
import { settlePath } from '../settle-decision.ts';

const admission = buildReservation(null, IMPLICIT_DEFAULT_POLICY, {
  tenantId: 't1',
  connectorTypeId: 'ct',
  instanceId: 'cinst_1',
  bindingKey: 'b1',
});
const assignment: RouteAssignment = {
  action_id: 'a1',
  capability_id: 'cap:x',
  tenant_id: 't1',
  instance_id: 'cinst_1',
  version_id: 'cver_1',
  manifest_digest: `sha256:${'0'.repeat(64)}`,
  replica_id: 'crepl_1',
  endpoint: 'https://r1.example.test',
  peer_principal_id: 'p1',
  peer_principal_kind: 'service',
  peer_did: 'did:web:r1.example.test',
  trust_domain: 'example.test',
  transport_profile: 'a2a-jsonrpc',
  topology: { region: 'eu', zone: 'eu-1', capacity_class: 'standard' },
  catalog_revision: 1,
  binding_policy_revision: 1,
  credential_revision_ref: null,
  quota_policy_ref: null,
  replica_health_revision: 1,
  fence_token: '0190f3b2-7c00-7000-8000-000000000001',
  admission,
  assigned_at: '2026-01-01T00:00:00.000Z',
};
const req = { action_id: 'a1', capability_id: 'cap:x' };
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as RegistryError).code;
  }
  return 'none';
};

describe('resolve decision', () => {
  it('[pinned-reserved], [pinned-reacquire]: select, reuse or reacquire by the stored route', () => {
    assert.equal(resolvePath(undefined, 't1', req), 'select');
    assert.equal(resolvePath({ assignment, reserved: true }, 't1', req), 'reuse');
    assert.equal(resolvePath({ assignment, reserved: false }, 't1', req), 'reacquire');
  });

  it('an action routed for another tenant or capability is CONFLICT', () => {
    assert.equal(
      code(() => resolvePath({ assignment, reserved: true }, 't2', req)),
      'CONFLICT',
    );
    assert.equal(
      code(() => resolvePath({ assignment, reserved: true }, 't1', { ...req, capability_id: 'cap:y' })),
      'CONFLICT',
    );
  });

  it('no eligible binding is BINDING_UNAVAILABLE; eligible bindings without a replica, REPLICA_UNAVAILABLE of the first', () => {
    assert.equal(noReplicaRefusal('t1', 'cap:x', undefined).code, 'BINDING_UNAVAILABLE');
    const refusal = noReplicaRefusal('t1', 'cap:x', 'i1');
    assert.deepEqual([refusal.code, refusal.details], ['REPLICA_UNAVAILABLE', { instance_id: 'i1' }]);
  });

  it('a disabled policy is ADMISSION_REJECTED; the first scope at its limit is CAPACITY_EXCEEDED', () => {
    assert.equal(
      code(() => newRouteScopes({ ...IMPLICIT_DEFAULT_POLICY, enabled: false }, admission)),
      'ADMISSION_REJECTED',
    );
    const scopes = newRouteScopes(IMPLICIT_DEFAULT_POLICY, admission);
    assert.equal(
      capacityRefusal(scopes, () => 0),
      null,
    );
    const full = capacityRefusal(scopes, (s) => (s.kind === 'instance' || s.kind === 'binding' ? s.limit : 0));
    assert.deepEqual(full?.details, { scope: 'instance' });
  });

  it('[pinned-precedence]: a scope at its limit refuses before an unusable replica', () => {
    const full = capacityRefusal(admission.base_scopes, (s) => s.limit);
    assert.equal(reacquireRefusal(full, false, 'i1')?.code, 'CAPACITY_EXCEEDED');
    assert.equal(reacquireRefusal(null, false, 'i1')?.code, 'REPLICA_UNAVAILABLE');
    assert.equal(reacquireRefusal(null, true, 'i1'), null);
  });

  it('[pinned-replica-conditions]: a gone replica or chain cannot take the retry', () => {
    const replica = {
      version_id: 'v1',
      status: 'draining' as const,
      lease_expires_at_ms: 2000,
      capacity: 1,
      active: 0,
      consecutive_failures: 0,
      open_until_ms: 0,
      topology: assignment.topology,
    };
    const chain = {
      instance: {
        id: 'i1',
        connector_type_id: 'ct',
        version_id: 'v1',
        tenant_id: 't1',
        config_revision: 1,
        secret_provider_ref: 's',
        status: 'enabled' as const,
      },
      version: { status: 'active' as const, supply_chain_qualified: true },
      type: { enabled: true },
    };
    assert.equal(pinnedRouteUsable('v1', { replica, ...chain }, 1000), true);
    assert.equal(pinnedRouteUsable('v1', { replica: undefined, ...chain }, 1000), false);
    assert.equal(pinnedRouteUsable('v1', { replica, ...chain, instance: undefined }, 1000), false);
    assert.equal(pinnedRouteUsable('v1', { replica, ...chain }, 2000), false, 'lease expired');
  });
});

describe('settlement decision', () => {
  it('[settle-fence]: no route of this tenant is NOT_FOUND, a different assignment FENCE_LOST, bad input INVALID_REQUEST', () => {
    assert.equal(
      code(() => settlePath(undefined, 't1', 'a1', assignment)),
      'NOT_FOUND',
    );
    assert.equal(
      code(() => settlePath({ assignment, reserved: true }, 't2', 'a1', assignment)),
      'NOT_FOUND',
    );
    const other = { ...assignment, fence_token: '0190f3b2-7c00-7000-8000-000000000002' };
    assert.equal(
      code(() => settlePath({ assignment, reserved: true }, 't1', 'a1', other)),
      'FENCE_LOST',
    );
    const bad = { ...assignment, fence_token: 7 } as unknown as RouteAssignment;
    assert.equal(
      code(() => settlePath({ assignment, reserved: true }, 't1', 'a1', bad)),
      'INVALID_REQUEST',
    );
  });

  it('[settle-release-once], [settle-idempotent]: release once, then answer unreleased', () => {
    assert.equal(settlePath({ assignment, reserved: true }, 't1', 'a1', assignment), 'release');
    assert.equal(settlePath({ assignment, reserved: false }, 't1', 'a1', assignment), 'unreleased');
  });
});
