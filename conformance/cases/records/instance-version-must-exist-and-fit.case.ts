import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/instance-version-must-exist-and-fit',
  clause: 'records-instance-keys',
  category: 'records',
  description: "an instance's version must exist (404) and be of its type (400); its status is not checked",
  async run(ctx) {
    // No bindings: a bound capability the new version lacked would also be CONFLICT
    // ([records-instance-rollout]), and the contract does not rank the two.
    const fleet = await ctx.fx.fleet({ bound: [] });
    const other = await ctx.fx.fleet({ bound: [] });
    const params = { instance_id: fleet.instance.id };
    const next = { ...fleet.instance, config_revision: 2 };
    expectError(
      await ctx.admin.call('putInstance', { params, body: { ...next, version_id: ctx.ids.version('absent') } }),
      'NOT_FOUND',
      undefined,
      'unknown version',
    );
    expectError(
      await ctx.admin.call('putInstance', { params, body: { ...next, version_id: other.version.id } }),
      'INVALID_REQUEST',
      undefined,
      'version of another type',
    );
    const admitted = await ctx.fx.version(fleet.type.id, fleet.capabilities, { status: 'admitted' });
    expectOk(
      await ctx.admin.call('putInstance', { params, body: { ...next, version_id: admitted.id } }),
      'moving to an admitted (not active) version',
    );
    const fresh = ctx.build.instance(ctx.ids.instance(), fleet.type.id, admitted.id, fleet.tenant);
    expectOk(
      await ctx.admin.call('putInstance', { params: { instance_id: fresh.id }, body: fresh }),
      'a new instance on an admitted version',
    );
  },
});
