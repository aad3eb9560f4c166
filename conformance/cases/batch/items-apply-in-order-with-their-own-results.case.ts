import type { BatchItem } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'batch/items-apply-in-order-with-their-own-results',
  clause: 'batch-items',
  category: 'batch',
  description: 'batch items apply in order, later ones seeing earlier ones, each with its own result',
  async run(ctx) {
    const b = ctx.build;
    const tenant = ctx.ids.tenant();
    const [typeId, versionId, instanceId, replicaId] = [ctx.ids.type(), ctx.ids.version(), ctx.ids.instance(), ctx.ids.replica()];
    const cap = ctx.fx.capability();
    const items: BatchItem[] = [
      { op: 'put_connector_type', record: b.connectorType(typeId) },
      { op: 'admit_version', record: b.version(versionId, typeId, [cap]) },
      { op: 'put_instance', record: b.instance(instanceId, typeId, versionId, tenant) },
      { op: 'put_binding', record: b.binding(tenant, cap.id, instanceId) },
      { op: 'provision_replica', record: b.replica(replicaId, instanceId, versionId, ctx.clock.now() + 3_600_000) },
      { op: 'report_health', id: replicaId, report: b.health(2, ctx.clock.now() + 3_600_000, { status: 'draining' }) },
      { op: 'put_connector_type', record: b.connectorType(typeId) },
      { op: 'set_version_status', id: versionId, status: 'admitted' },
      { op: 'set_connector_type_enabled', id: typeId, enabled: false },
    ];
    const reply = await ctx.as({ roles: ['registry:admin', 'registry:lifecycle'] }).call('applyBatch', { body: { items } });
    const result = expectOk(reply);
    expectEqual(
      result.results.map((r) => [r.index, r.outcome]),
      items.map((_, i) => [i, i === 6 ? 'unchanged' : 'applied']),
      'item results',
      reply.exchange,
    );
    expectEqual((await ctx.fx.replicaState(replicaId)).status, 'draining', 'replica state after the batch');
    expectEqual(
      expectOk(await ctx.reader.call('getVersion', { params: { version_id: versionId } })).status,
      'admitted',
      'version status after the batch',
    );
    expectEqual(
      expectOk(await ctx.reader.call('getConnectorType', { params: { type_id: typeId } })).enabled,
      false,
      'type after the batch',
    );
  },
});
