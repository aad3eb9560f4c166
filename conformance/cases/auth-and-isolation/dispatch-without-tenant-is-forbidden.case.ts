import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/dispatch-without-tenant-is-forbidden',
  clause: 'auth-dispatch-needs-tenant',
  category: 'auth-and-isolation',
  description: 'resolve, read and settle with a dispatch token that has no tenant_id claim are 403',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const noTenant = ctx.as({ roles: ['registry:dispatch'] });
    const action = view.assignment.action_id;
    expectError(
      await noTenant.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } }),
      'FORBIDDEN',
      undefined,
      'resolve',
    );
    expectError(await noTenant.call('getRoute', { params: { action_id: action } }), 'FORBIDDEN', undefined, 'read route');
    const settle = { assignment: view.assignment, outcome: 'completed' as const };
    expectError(await noTenant.call('settleRoute', { params: { action_id: action }, body: settle }), 'FORBIDDEN', undefined, 'settle');
  },
});
