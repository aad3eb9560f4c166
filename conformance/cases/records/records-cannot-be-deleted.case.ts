import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/records-cannot-be-deleted',
  clause: 'records-never-deleted',
  category: 'records',
  description: 'DELETE on any record path is 405 and the record is still there',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: {} });
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const b = fleet.binding;
    const token = await ctx.tokens.mint({ roles: ['registry:admin', 'registry:lifecycle', 'registry:dispatch'], tenant: fleet.tenant });
    const paths = [
      `/v1/connector-types/${fleet.type.id}`,
      `/v1/versions/${fleet.version.id}`,
      `/v1/instances/${fleet.instance.id}`,
      `/v1/bindings/${b.tenant_id}/${b.capability_id}/${b.instance_id}`,
      `/v1/admission-policies/${fleet.policy!.policy_ref}`,
      `/v1/replicas/${fleet.replicas[0]!.id}`,
      `/v1/routes/${view.assignment.action_id}`,
    ];
    for (const path of paths)
      expectError(await ctx.api.raw('DELETE', path, { as: { token } }), 'METHOD_NOT_ALLOWED', undefined, `DELETE ${path}`);
    expectOk(await ctx.reader.call('getConnectorType', { params: { type_id: fleet.type.id } }));
    expectOk(await ctx.reader.call('getVersion', { params: { version_id: fleet.version.id } }));
    expectOk(await ctx.reader.call('getInstance', { params: { instance_id: fleet.instance.id } }));
    expectOk(
      await ctx.reader.call('getBinding', {
        params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
      }),
    );
    expectOk(await ctx.reader.call('getReplica', { params: { replica_id: fleet.replicas[0]!.id } }));
    expectOk(await ctx.dispatch(fleet.tenant).call('getRoute', { params: { action_id: view.assignment.action_id } }));
  },
});
