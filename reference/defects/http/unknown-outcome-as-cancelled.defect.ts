import { SETTLEMENT_OUTCOMES } from '../../../contract/records.ts';
import { httpDefect } from '../defect.ts';
import { forOperations, rewritingJsonBodies } from '../support/http.ts';

export default httpDefect({
  name: 'unknown-outcome-as-cancelled',
  clause: 'settle-outcomes',
  does: 'a settlement with an outcome outside the four the contract names settles as cancelled instead of INVALID_REQUEST',
  requests: (next) =>
    rewritingJsonBodies(next, forOperations('settleRoute'), (json) => {
      const body = json as { outcome?: unknown } | null;
      if (body === null || typeof body !== 'object' || (SETTLEMENT_OUTCOMES as readonly unknown[]).includes(body.outcome)) return json;
      return { ...body, outcome: 'cancelled' };
    }),
});
