// Batch administration (spec.md [batch-items], [batch-roles]) in terms of the
// single operations, so a batch item behaves exactly as the operation alone.
import type { BatchItem, BatchItemResult, BatchOp, Role, WriteOutcome } from '../../contract/records.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import { assertShape } from '../domain/validation.ts';
import type { RegistryAdministrator } from '../../contract/target-port.ts';

export const BATCH_OP_ROLES: Readonly<Record<BatchOp, Role>> = {
  put_connector_type: 'registry:admin',
  set_connector_type_enabled: 'registry:admin',
  admit_version: 'registry:admin',
  set_version_status: 'registry:admin',
  put_instance: 'registry:admin',
  put_binding: 'registry:admin',
  put_admission_policy: 'registry:admin',
  provision_replica: 'registry:lifecycle',
  report_health: 'registry:lifecycle',
};

/** Catalog writes advance the revision; replica writes never do. */
export function isCatalogWrite(op: BatchOp): boolean {
  return BATCH_OP_ROLES[op] === 'registry:admin';
}

export async function applyBatchItem(store: RegistryAdministrator, item: BatchItem): Promise<WriteOutcome> {
  switch (item.op) {
    case 'put_connector_type':
      return (await store.putConnectorType(item.record)).outcome;
    case 'set_connector_type_enabled':
      return (await store.setConnectorTypeEnabled(item.id, item.enabled)).outcome;
    case 'admit_version':
      return (await store.admitVersion(item.record)).outcome;
    case 'set_version_status':
      return (await store.setVersionStatus(item.id, item.status)).outcome;
    case 'put_instance':
      return (await store.putInstance(item.record)).outcome;
    case 'put_binding':
      return (await store.putBinding(item.record)).outcome;
    case 'put_admission_policy':
      return (await store.putAdmissionPolicy(item.record)).outcome;
    case 'provision_replica':
      return (await store.provisionReplica(item.record)).outcome;
    case 'report_health':
      return (await store.reportHealth(item.id, item.report)).outcome;
  }
}

/** Applies items in order; each failure is that item's result and nothing more. */
export async function applyBatchItems(store: RegistryAdministrator, items: unknown[], maxItems: number): Promise<BatchItemResult[]> {
  assertShape('BatchRequest', { items });
  if (items.length > maxItems) throw new RegistryError('INVALID_REQUEST', `a batch holds at most ${maxItems} items`);
  const results: BatchItemResult[] = [];
  for (let index = 0; index < items.length; index++) {
    try {
      const item = items[index];
      assertShape<BatchItem>('BatchItem', item);
      results.push({ index, outcome: await applyBatchItem(store, item) });
    } catch (err) {
      if (!RegistryError.is(err) || err.code === 'STORAGE_UNAVAILABLE') throw err;
      const error: { code: string; message: string; details?: Record<string, unknown> } = { code: err.code, message: err.message };
      if (err.details) error.details = err.details;
      results.push({ index, outcome: 'rejected', error });
    }
  }
  return results;
}
