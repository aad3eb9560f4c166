// Admission policy writes (spec.md [records-policy-bounds], [records-policy-revision]).
import type { AdmissionPolicy, WriteOutcome } from '../../../contract/records.ts';
import { conflict } from '../../../contract/registry-error.ts';
import { assertShape, jsonEqual } from '../validation.ts';

export function decidePutAdmissionPolicy(record: unknown, existing: AdmissionPolicy | undefined): WriteOutcome {
  assertShape<AdmissionPolicy>('AdmissionPolicy', record);
  if (existing === undefined) return 'applied';
  if (jsonEqual(existing, record)) return 'unchanged';
  if (record.revision <= existing.revision) throw conflict('revision must increase');
  return 'applied';
}
