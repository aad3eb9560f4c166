import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/identical-put-is-unchanged',
  clause: 'records-identical-put',
  category: 'records',
  description: 'writing any record identical to the stored one succeeds with outcome unchanged',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 50 } });
    const replica = fleet.replicas[0]!;
    const b = fleet.binding;
    const writes = [
      ['type', await ctx.admin.call('putConnectorType', { params: { type_id: fleet.type.id }, body: fleet.type })],
      ['type enabled', await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: true } })],
      ['version', await ctx.admin.call('admitVersion', { params: { version_id: fleet.version.id }, body: fleet.version })],
      [
        'version status',
        await ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: { status: 'active' } }),
      ],
      ['instance', await ctx.admin.call('putInstance', { params: { instance_id: fleet.instance.id }, body: fleet.instance })],
      [
        'binding',
        await ctx.admin.call('putBinding', {
          params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
          body: b,
        }),
      ],
      ['policy', await ctx.admin.call('putAdmissionPolicy', { params: { policy_ref: fleet.policy!.policy_ref }, body: fleet.policy! })],
      ['replica', await ctx.lifecycle.call('provisionReplica', { params: { replica_id: replica.id }, body: replica })],
    ] as const;
    for (const [what, reply] of writes)
      expectEqual(expectOk(reply, what).outcome, 'unchanged', `outcome of an identical ${what} write`, reply.exchange);
  },
});
