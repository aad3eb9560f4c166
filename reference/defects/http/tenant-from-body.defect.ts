import { httpDefect } from '../defect.ts';
import { jsonOf, operationOf, replayed, withBody } from '../support/http.ts';

const ROUTING_BODIES = new Set(['resolveRoute', 'settleRoute']);

/**
 * A routing body's `tenant_id` is taken out before validation, so the rest
 * of the request must still be well formed, and the route is resolved or
 * settled for that tenant instead of the token's.
 */
export default httpDefect({
  name: 'tenant-from-body',
  clause: 'auth-tenant-from-token',
  does: 'resolve and settle take the tenant from a tenant_id field of the body, when it has one, instead of the token',
  build: () => {
    const named = new Map<string, string>();
    const tenantFor = (actionId: string, token: string) => {
      const body = named.get(actionId);
      named.delete(actionId);
      return body ?? token;
    };
    return {
      requests: (next) =>
        withBody(
          next,
          (req) => ROUTING_BODIES.has(operationOf(req)?.operationId ?? ''),
          (req, body, res) => {
            const json = jsonOf(body) as Record<string, unknown> | undefined;
            const tenant = json?.['tenant_id'];
            if (typeof tenant !== 'string') return next(replayed(req, body), res);
            const { tenant_id: _lifted, ...rest } = json!;
            const actionId = operationOf(req)!.params['action_id'] ?? rest['action_id'];
            if (typeof actionId === 'string') {
              named.set(actionId, tenant);
              // Only this request's: one refused before it reached the store must not lend its tenant to a later request for the action.
              res.once('close', () => {
                if (named.get(actionId) === tenant) named.delete(actionId);
              });
            }
            next(replayed(req, body, { body: Buffer.from(JSON.stringify(rest)) }), res);
          },
        ),
      changes: (inner) => ({
        resolve: (tenantId, request) => inner.resolve(tenantFor(request.action_id, tenantId), request),
        settle: (tenantId, actionId, assignment, outcome) => inner.settle(tenantFor(actionId, tenantId), actionId, assignment, outcome),
      }),
    };
  },
});
