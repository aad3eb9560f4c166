import type { BatchItem } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'batch/missing-item-role-is-forbidden-before-any-item',
  clause: 'batch-roles',
  category: 'batch',
  description: 'a batch needing a role the token lacks is 403 as a whole, and no item is applied',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const typeId = ctx.ids.type();
    const replica = { ...fleet.replicas[0]!, id: ctx.ids.replica() };
    const items: BatchItem[] = [
      { op: 'put_connector_type', record: ctx.build.connectorType(typeId) },
      { op: 'provision_replica', record: replica },
    ];
    for (const roles of [['registry:admin'], ['registry:lifecycle'], ['registry:reader', 'registry:dispatch']]) {
      expectError(
        await ctx.as({ roles }).call('applyBatch', { body: { items } }),
        'FORBIDDEN',
        undefined,
        `a catalog and a replica item with only ${roles.join(' ')}`,
      );
    }
    expectError(await ctx.reader.call('getConnectorType', { params: { type_id: typeId } }), 'NOT_FOUND', undefined, 'the catalog item');
    expectError(await ctx.reader.call('getReplica', { params: { replica_id: replica.id } }), 'NOT_FOUND', undefined, 'the replica item');
  },
});
