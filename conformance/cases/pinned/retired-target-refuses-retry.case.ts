import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/retired-target-refuses-retry',
  clause: 'pinned-replica-conditions',
  category: 'pinned',
  description: 'a disabled instance, a disabled type or a revoked version makes a retry REPLICA_UNAVAILABLE',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10 });
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(view);
    const retry = async (what: string) => {
      const reply = await ctx
        .dispatch(fleet.tenant)
        .call('resolveRoute', { body: { action_id: view.assignment.action_id, capability_id: fleet.capability } });
      expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, `retry with ${what}`);
      expectEqual(await ctx.fx.active(view.assignment.replica_id), 0, `replica units with ${what}`);
    };
    const instance = { instance_id: fleet.instance.id };
    expectOk(
      await ctx.admin.call('putInstance', { params: instance, body: { ...fleet.instance, status: 'disabled', config_revision: 2 } }),
    );
    await retry('the instance disabled');
    expectOk(await ctx.admin.call('putInstance', { params: instance, body: { ...fleet.instance, config_revision: 3 } }));
    expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: false } }));
    await retry('the connector type disabled');
    expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: true } }));
    expectOk(await ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: { status: 'revoked' } }));
    await retry('the version revoked');
  },
});
