import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/retired-records-stay-readable',
  clause: 'records-never-deleted',
  category: 'records',
  description: 'disabled, revoked and offline records stay readable with their retired state',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const b = fleet.binding;
    const bindingParams = { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id };
    expectOk(
      await ctx.admin.call('putBinding', { params: bindingParams, body: { ...b, enabled: false, policy_revision: b.policy_revision + 1 } }),
    );
    expectOk(
      await ctx.admin.call('putInstance', {
        params: { instance_id: fleet.instance.id },
        body: { ...fleet.instance, status: 'disabled', config_revision: 2 },
      }),
    );
    expectOk(await ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: { status: 'revoked' } }));
    expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: false } }));
    await ctx.fx.health(fleet.replicas[0]!.id, { status: 'offline', lease_expires_at: ctx.clock.at(-60_000) });

    expectEqual(expectOk(await ctx.reader.call('getBinding', { params: bindingParams })).enabled, false, 'binding');
    expectEqual(
      expectOk(await ctx.reader.call('getInstance', { params: { instance_id: fleet.instance.id } })).status,
      'disabled',
      'instance',
    );
    expectEqual(expectOk(await ctx.reader.call('getVersion', { params: { version_id: fleet.version.id } })).status, 'revoked', 'version');
    expectEqual(expectOk(await ctx.reader.call('getConnectorType', { params: { type_id: fleet.type.id } })).enabled, false, 'type');
    expectEqual((await ctx.fx.replicaState(fleet.replicas[0]!.id)).status, 'offline', 'replica');
  },
});
