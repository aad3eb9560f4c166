import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/binding-references-are-checked',
  clause: 'records-binding-references',
  category: 'records',
  description: 'a binding needs an existing instance of its tenant implementing the capability, and a known policy',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ bound: [] });
    const cap = fleet.capabilities[0]!.id;
    const put = (tenant: string, capability: string, instance: string, over: object = {}) =>
      ctx.admin.call('putBinding', {
        params: { tenant_id: tenant, capability_id: capability, instance_id: instance },
        body: { ...ctx.build.binding(tenant, capability, instance), ...over },
      });
    expectError(await put(fleet.tenant, cap, ctx.ids.instance('absent')), 'NOT_FOUND', undefined, 'unknown instance');
    expectError(await put(ctx.ids.tenant('other'), cap, fleet.instance.id), 'INVALID_REQUEST', undefined, "another tenant's instance");
    expectError(
      await put(fleet.tenant, ctx.ids.capability('unimplemented'), fleet.instance.id),
      'INVALID_REQUEST',
      undefined,
      'capability the version lacks',
    );
    expectError(
      await put(fleet.tenant, cap, fleet.instance.id, { quota_policy_ref: ctx.ids.policy('absent') }),
      'NOT_FOUND',
      undefined,
      'unknown admission policy',
    );
    const read = await ctx.reader.call('getBinding', {
      params: { tenant_id: fleet.tenant, capability_id: cap, instance_id: fleet.instance.id },
    });
    expectError(read, 'NOT_FOUND', undefined, 'the binding after the refusals');
  },
});
