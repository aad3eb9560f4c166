import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/binding-change-needs-larger-policy-revision',
  clause: 'records-binding-revision',
  category: 'records',
  description: 'a new binding may start at policy_revision 0; a change needs a strictly larger one',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ bound: [] });
    const cap = fleet.capabilities[0]!.id;
    const params = { tenant_id: fleet.tenant, capability_id: cap, instance_id: fleet.instance.id };
    const binding = { ...ctx.build.binding(fleet.tenant, cap, fleet.instance.id), policy_revision: 0 };
    expectEqual(expectOk(await ctx.admin.call('putBinding', { params, body: binding })).outcome, 'applied', 'a new binding at revision 0');
    expectError(
      await ctx.admin.call('putBinding', { params, body: { ...binding, priority: 9 } }),
      'CONFLICT',
      undefined,
      'change at the same revision',
    );
    const changed = expectOk(await ctx.admin.call('putBinding', { params, body: { ...binding, priority: 9, policy_revision: 1 } }));
    expectEqual([changed.outcome, changed.record.priority], ['applied', 9], 'change at revision 1');
    expectError(
      await ctx.admin.call('putBinding', { params, body: { ...binding, priority: 3, policy_revision: 0 } }),
      'CONFLICT',
      undefined,
      'change at a smaller revision',
    );
  },
});
