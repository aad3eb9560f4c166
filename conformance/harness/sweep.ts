// Sweeps over every operation of openapi.yaml, for the cases that hold for
// all of them (no token, a missing role, malformed input): a new operation in
// the contract is covered the day it is added.
import { operations } from '../../contract/openapi.ts';
import type { Ids } from './ids.ts';
import type { OperationId } from '../../contract/operations.ts';

export interface SweptOperation {
  op: OperationId;
  method: string;
  path: string;
  /** null: public; []: any valid token; otherwise every role listed is needed. */
  roles: string[] | null;
  hasBody: boolean;
  pathParams: string[];
}

export function sweptOperations(): SweptOperation[] {
  return operations().map((e) => ({
    op: e.operation.operationId as OperationId,
    method: e.method.toUpperCase(),
    path: e.path,
    roles: e.roles,
    hasBody: e.operation.requestBody !== undefined,
    pathParams: e.parameters.filter((p) => p.in === 'path').map((p) => p.name),
  }));
}

/** Well-formed path parameters naming records that do not exist (run-scoped, never created). */
export function absentParams(ids: Ids, op: SweptOperation): Record<string, string> {
  const values: Record<string, string> = {
    type_id: ids.type('absent'),
    version_id: ids.version('absent'),
    instance_id: ids.instance('absent'),
    replica_id: ids.replica('absent'),
    tenant_id: ids.tenant('absent'),
    capability_id: ids.capability('absent'),
    policy_ref: ids.policy('absent'),
    kind: 'tenant',
    key: ids.tenant('absent'),
    action_id: ids.action('absent'),
  };
  return Object.fromEntries(op.pathParams.map((name) => [name, values[name] ?? 'absent']));
}
