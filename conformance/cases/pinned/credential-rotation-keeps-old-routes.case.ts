import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/credential-rotation-keeps-old-routes',
  clause: 'pinned-identical',
  category: 'pinned',
  description: 'after credential rotation, old actions retry with the old revision and new ones get the new',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const old = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(old);
    const b = fleet.binding;
    const rotated = { ...b, credential_revision_ref: 'credential-revision-2', policy_revision: b.policy_revision + 1 };
    expectOk(
      await ctx.admin.call('putBinding', {
        params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
        body: rotated,
      }),
    );
    const retried = await ctx.fx.resolve(fleet.tenant, fleet.capability, old.assignment.action_id);
    expectIdentical(retried.assignment, old.assignment, 'the retried old action');
    const fresh = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectEqual(
      [fresh.assignment.credential_revision_ref, fresh.assignment.binding_policy_revision],
      ['credential-revision-2', rotated.policy_revision],
      'a new action',
    );
  },
});
