import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/replica-provision-needs-current-version',
  clause: 'records-replica-provision',
  category: 'records',
  description: "provisioning needs an existing instance (404) at the replica's version_id (400)",
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 0 });
    const older = fleet.version;
    const newer = await ctx.fx.version(fleet.type.id, fleet.capabilities);
    const put = (over: object) => {
      const r = { ...ctx.build.replica(ctx.ids.replica(), fleet.instance.id, older.id, ctx.clock.now() + 3_600_000), ...over };
      return ctx.lifecycle.call('provisionReplica', { params: { replica_id: r.id }, body: r });
    };
    expectError(await put({ instance_id: ctx.ids.instance('absent') }), 'NOT_FOUND', undefined, 'unknown instance');
    expectError(await put({ version_id: newer.id }), 'INVALID_REQUEST', undefined, 'a version the instance is not at');
    expectOk(
      await ctx.admin.call('putInstance', {
        params: { instance_id: fleet.instance.id },
        body: { ...fleet.instance, version_id: newer.id, config_revision: 2 },
      }),
      'rollout',
    );
    expectError(await put({ version_id: older.id }), 'INVALID_REQUEST', undefined, 'the version the instance left');
  },
});
