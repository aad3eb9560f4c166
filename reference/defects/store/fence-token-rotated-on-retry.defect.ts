import { createHash } from 'node:crypto';
import { storeDefect } from '../defect.ts';
import { rewrittenAssignments } from '../support/assignments.ts';

/** Each attempt of an action shows a fence token of its own, derived from the stored one and the attempt's number. */
export default storeDefect({
  name: 'fence-token-rotated-on-retry',
  clause: 'assignment-fence-token',
  does: 'each retry of an action answers a new fence token instead of the token of its first assignment',
  changes: (inner) => {
    const attempts = new Map<string, number>();
    const tokenOf = (stored: string, attempt: number) =>
      attempt === 0 ? stored : `${stored.slice(0, 24)}${createHash('sha256').update(`${stored}.${attempt}`).digest('hex').slice(0, 12)}`;
    const shown = rewrittenAssignments(inner, (view) => ({
      ...view,
      assignment: { ...view.assignment, fence_token: tokenOf(view.assignment.fence_token, attempts.get(view.assignment.action_id) ?? 0) },
    }));
    return {
      ...shown,
      async resolve(tenantId, request) {
        const held = await inner.route(tenantId, request.action_id);
        if (held && !held.reserved) attempts.set(request.action_id, (attempts.get(request.action_id) ?? 0) + 1);
        return shown.resolve(tenantId, request);
      },
    };
  },
});
