// The `tenant-from-body` fault ([auth-tenant-from-token] broken on purpose):
// routing bodies may carry a `tenant_id`, and it overrides the token's. It is
// lifted out before validation so the rest of the request still has to be
// well formed. Only a server constructed with the fault ever calls this.
const ROUTING_BODY_OPERATIONS = new Set(['resolveRoute', 'settleRoute']);

export function liftBodyTenant(operationId: string, body: unknown): string | undefined {
  if (!ROUTING_BODY_OPERATIONS.has(operationId) || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const tenant = record['tenant_id'];
  if (typeof tenant !== 'string') return undefined;
  delete record['tenant_id'];
  return tenant;
}
