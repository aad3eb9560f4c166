import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical, expectOk, expectOneOf } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/instance-type-or-tenant-change-is-conflict',
  clause: 'records-instance-keys',
  category: 'records',
  description: "a put that changes an instance's connector type or tenant is 409, whatever its config_revision",
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const other = await ctx.fx.fleet();
    const next = { ...fleet.instance, config_revision: 5 };
    const params = { instance_id: fleet.instance.id };
    expectError(
      await ctx.admin.call('putInstance', { params, body: { ...next, tenant_id: ctx.ids.tenant('elsewhere') } }),
      'CONFLICT',
      undefined,
      'tenant changed',
    );
    const moved = { ...next, connector_type_id: other.type.id, version_id: other.version.id };
    // The version belongs to the new type, not to the instance's own: a registry may answer for either rule
    // ([error-precedence]), INVALID_REQUEST for the version; either way nothing changes.
    expectOneOf(await ctx.admin.call('putInstance', { params, body: moved }), ['CONFLICT', 'INVALID_REQUEST'], 'connector type changed');
    expectIdentical(expectOk(await ctx.reader.call('getInstance', { params })), fleet.instance, 'the stored instance');
  },
});
