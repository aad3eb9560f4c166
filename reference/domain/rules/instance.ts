// Instance writes (spec.md [records-instance-keys], [records-instance-revision], [records-instance-rollout]).
import type { ConnectorInstance, WriteOutcome } from '../../../contract/records.ts';
import { conflict, invalid, notFound } from '../../../contract/registry-error.ts';
import { assertShape, jsonEqual } from '../validation.ts';

export interface InstanceContext {
  existing: ConnectorInstance | undefined;
  /** The referenced version, when it exists. */
  version: { connector_type_id: string; implements(capabilityId: string): boolean } | undefined;
  /** Capabilities of the instance's enabled bindings. */
  enabledBindingCapabilities: readonly string[];
}

/** `referencesFirst`: the version reference is checked before the immutable fields (the order is open, [error-precedence]). */
export function decidePutInstance(record: unknown, ctx: InstanceContext, referencesFirst = false): WriteOutcome {
  assertShape<ConnectorInstance>('ConnectorInstance', record);
  const { existing, version } = ctx;
  if (existing !== undefined && jsonEqual(existing, record)) return 'unchanged';
  const immutable = () => {
    if (existing === undefined) return;
    if (existing.connector_type_id !== record.connector_type_id) throw conflict('an instance cannot change connector type');
    if (existing.tenant_id !== record.tenant_id) throw conflict('an instance cannot change tenant');
  };
  if (!referencesFirst) immutable();
  if (version === undefined) throw notFound(`version ${record.version_id}`);
  if (version.connector_type_id !== record.connector_type_id) throw invalid('the version belongs to another connector type');
  if (referencesFirst) immutable();
  if (existing !== undefined) {
    if (record.config_revision <= existing.config_revision) throw conflict('config_revision must increase');
    const dropped = ctx.enabledBindingCapabilities.find((c) => !version.implements(c));
    if (dropped !== undefined) throw conflict(`version ${record.version_id} does not implement bound capability ${dropped}`);
  }
  return 'applied';
}
