import type { ScopeReservation } from '../../../contract/records.ts';
import { storeDefect } from '../defect.ts';

/**
 * Counter reads count only the reservations made under the policy that last
 * reserved the scope, as a registry keying its counters by policy would.
 * Admission itself still checks the shared counter.
 */
export default storeDefect({
  name: 'counters-per-policy',
  clause: 'admission-counters',
  does: 'an admission counter read counts only the reservations of the policy that last used it, not every policy naming the scope',
  changes: (inner) => {
    const held = new Map<string, { policy: string | null; scopes: ScopeReservation[] }>();
    const lastPolicy = new Map<string, string | null>();
    const keyOf = (kind: string, key: string) => `${kind}\u001f${key}`;
    const refresh = async (tenantId: string, actionId: string) => {
      const view = await inner.route(tenantId, actionId);
      if (!view?.reserved) return void held.delete(actionId);
      const { policy_ref: policy, base_scopes, retry_scope } = view.assignment.admission;
      const scopes = [...base_scopes, ...(retry_scope ? [retry_scope] : [])];
      held.set(actionId, { policy, scopes });
      for (const s of scopes) lastPolicy.set(keyOf(s.kind, s.key), policy);
    };
    return {
      async resolve(tenantId, request) {
        const view = await inner.resolve(tenantId, request);
        await refresh(tenantId, request.action_id);
        return view;
      },
      async settle(tenantId, actionId, assignment, outcome) {
        const result = await inner.settle(tenantId, actionId, assignment, outcome);
        await refresh(tenantId, actionId);
        return result;
      },
      async getAdmissionCounter(kind, key) {
        const counter = await inner.getAdmissionCounter(kind, key);
        const k = keyOf(kind, key);
        if (!lastPolicy.has(k)) return counter;
        const policy = lastPolicy.get(k);
        const others = [...held.values()].filter((h) => h.policy !== policy && h.scopes.some((s) => keyOf(s.kind, s.key) === k)).length;
        return { ...counter, active: Math.max(0, counter.active - others) };
      },
    };
  },
});
