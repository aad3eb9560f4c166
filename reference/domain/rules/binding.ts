// Binding writes (spec.md [records-binding-references], [records-binding-revision]).
import type { CapabilityBinding, ConnectorInstance, WriteOutcome } from '../../../contract/records.ts';
import { conflict, invalid, notFound } from '../../../contract/registry-error.ts';
import { assertShape, jsonEqual } from '../validation.ts';

export interface BindingContext {
  existing: CapabilityBinding | undefined;
  instance: ConnectorInstance | undefined;
  /** Whether the instance's current version implements the capability. */
  implemented: boolean;
  policyExists: boolean;
}

export function decidePutBinding(record: unknown, ctx: BindingContext): WriteOutcome {
  assertShape<CapabilityBinding>('CapabilityBinding', record);
  if (ctx.existing !== undefined && jsonEqual(ctx.existing, record)) return 'unchanged';
  if (record.quota_policy_ref !== null && !ctx.policyExists) throw notFound(`admission policy ${record.quota_policy_ref}`);
  if (ctx.instance === undefined) throw notFound(`instance ${record.instance_id}`);
  if (ctx.instance.tenant_id !== record.tenant_id) throw invalid('the instance belongs to another tenant');
  if (!ctx.implemented) throw invalid(`the instance's version does not implement ${record.capability_id}`);
  if (ctx.existing !== undefined && record.policy_revision <= ctx.existing.policy_revision) throw conflict('policy_revision must increase');
  return 'applied';
}

export function bindingKeyOf(b: Pick<CapabilityBinding, 'tenant_id' | 'capability_id' | 'instance_id'>): string {
  return `${b.tenant_id}\u001f${b.capability_id}\u001f${b.instance_id}`;
}
