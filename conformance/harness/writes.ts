// One well-formed request of every write operation, built around a fleet, for
// the bad-input cases to break in one way each. Every write here would
// succeed as it is; what a case changes is the only reason it can fail.
import type { CaseContext } from './context.ts';
import type { Fleet } from './fixtures.ts';
import type { OperationId } from '../../contract/operations.ts';

export interface SampleWrite {
  name: string;
  op: OperationId;
  params: Record<string, string>;
  body: Record<string, unknown>;
  /** The read that shows whether the write took effect, when it would create a record. */
  read?: { op: OperationId; params: Record<string, string> };
}

export function sampleWrites(ctx: CaseContext, fleet: Fleet): SampleWrite[] {
  const b = ctx.build;
  const typeId = ctx.ids.type();
  const versionId = ctx.ids.version();
  const policyRef = ctx.ids.policy();
  const replicaId = ctx.ids.replica();
  const replica = fleet.replicas[0]!;
  return [
    {
      name: 'connector type',
      op: 'putConnectorType',
      params: { type_id: typeId },
      body: { ...b.connectorType(typeId) },
      read: { op: 'getConnectorType', params: { type_id: typeId } },
    },
    {
      name: 'version',
      op: 'admitVersion',
      params: { version_id: versionId },
      body: { ...b.version(versionId, fleet.type.id, fleet.capabilities, { version: ctx.ids.semver() }) },
      read: { op: 'getVersion', params: { version_id: versionId } },
    },
    { name: 'instance', op: 'putInstance', params: { instance_id: fleet.instance.id }, body: { ...fleet.instance, config_revision: 2 } },
    {
      name: 'binding',
      op: 'putBinding',
      params: { tenant_id: fleet.tenant, capability_id: fleet.capability, instance_id: fleet.instance.id },
      body: { ...fleet.binding, policy_revision: fleet.binding.policy_revision + 1 },
    },
    {
      name: 'admission policy',
      op: 'putAdmissionPolicy',
      params: { policy_ref: policyRef },
      body: { ...b.policy(policyRef) },
      read: { op: 'getAdmissionPolicy', params: { policy_ref: policyRef } },
    },
    {
      name: 'replica',
      op: 'provisionReplica',
      params: { replica_id: replicaId },
      body: { ...replica, id: replicaId },
      read: { op: 'getReplica', params: { replica_id: replicaId } },
    },
    {
      name: 'health report',
      op: 'reportHealth',
      params: { replica_id: replica.id },
      body: {
        health_revision: replica.health_revision + 1,
        status: 'draining',
        lease_expires_at: replica.lease_expires_at,
        capacity: replica.capacity,
      },
    },
    {
      name: 'resolve',
      op: 'resolveRoute',
      params: {},
      body: { action_id: ctx.ids.action(), capability_id: fleet.capability, topology: { region: 'global' } },
    },
  ];
}

/** Sends a sample write, or a mutation of it, speaking as whoever may do the operation. */
export function sendWrite(ctx: CaseContext, fleet: Fleet, write: SampleWrite, body: unknown) {
  const client =
    write.op === 'resolveRoute'
      ? ctx.dispatch(fleet.tenant)
      : write.op === 'provisionReplica' || write.op === 'reportHealth'
        ? ctx.lifecycle
        : ctx.admin;
  return client.call(write.op, { params: write.params as never, rawBody: JSON.stringify(body) });
}
