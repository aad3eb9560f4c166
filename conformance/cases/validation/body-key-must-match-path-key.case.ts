import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'validation/body-key-must-match-path-key',
  clause: 'wire-path-key',
  category: 'validation',
  description: 'a write whose body names another record than its path is 400 and creates neither',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const b = ctx.build;
    const [pathType, bodyType] = [ctx.ids.type(), ctx.ids.type()];
    expectError(
      await ctx.admin.call('putConnectorType', { params: { type_id: pathType }, body: b.connectorType(bodyType) }),
      'INVALID_REQUEST',
      undefined,
      'type',
    );
    for (const id of [pathType, bodyType])
      expectError(
        await ctx.reader.call('getConnectorType', { params: { type_id: id } }),
        'NOT_FOUND',
        undefined,
        `type ${id} after the refusal`,
      );

    const [pathPolicy, bodyPolicy] = [ctx.ids.policy(), ctx.ids.policy()];
    expectError(
      await ctx.admin.call('putAdmissionPolicy', { params: { policy_ref: pathPolicy }, body: b.policy(bodyPolicy) }),
      'INVALID_REQUEST',
      undefined,
      'policy',
    );
    for (const ref of [pathPolicy, bodyPolicy])
      expectError(
        await ctx.reader.call('getAdmissionPolicy', { params: { policy_ref: ref } }),
        'NOT_FOUND',
        undefined,
        `policy ${ref} after the refusal`,
      );

    const [pathReplica, bodyReplica] = [ctx.ids.replica(), ctx.ids.replica()];
    const replica = { ...fleet.replicas[0]!, id: bodyReplica };
    expectError(
      await ctx.lifecycle.call('provisionReplica', { params: { replica_id: pathReplica }, body: replica }),
      'INVALID_REQUEST',
      undefined,
      'replica',
    );
    for (const id of [pathReplica, bodyReplica])
      expectError(
        await ctx.reader.call('getReplica', { params: { replica_id: id } }),
        'NOT_FOUND',
        undefined,
        `replica ${id} after the refusal`,
      );

    const otherTenant = ctx.ids.tenant();
    const params = { tenant_id: otherTenant, capability_id: fleet.capability, instance_id: fleet.instance.id };
    const body = { ...fleet.binding, policy_revision: fleet.binding.policy_revision + 1 };
    expectError(await ctx.admin.call('putBinding', { params, body }), 'INVALID_REQUEST', undefined, 'binding keyed by another tenant');
    expectError(await ctx.reader.call('getBinding', { params }), 'NOT_FOUND', undefined, 'binding after the refusal');
  },
});
