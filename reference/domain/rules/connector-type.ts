// Connector type writes (spec.md [records-type-immutable], [records-type-enable]).
import type { ConnectorType, WriteOutcome } from '../../../contract/records.ts';
import { conflict, notFound } from '../../../contract/registry-error.ts';
import { assertShape, jsonEqual } from '../validation.ts';

export function decidePutConnectorType(record: unknown, existing: ConnectorType | undefined): WriteOutcome {
  assertShape<ConnectorType>('ConnectorType', record);
  if (existing === undefined) return 'applied';
  if (jsonEqual(existing, record)) return 'unchanged';
  throw conflict(`connector type ${record.id} exists with different content; only enabled may change, through its own operation`);
}

export function decideSetTypeEnabled(id: string, enabled: unknown, existing: ConnectorType | undefined): WriteOutcome {
  assertShape<string>('TypeId', id);
  assertShape<{ enabled: boolean }>('EnabledChange', { enabled });
  if (existing === undefined) throw notFound(`connector type ${id}`);
  return existing.enabled === enabled ? 'unchanged' : 'applied';
}
