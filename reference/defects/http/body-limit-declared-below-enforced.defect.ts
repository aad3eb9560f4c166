import { httpDefect } from '../defect.ts';
import { jsonOf, operationOf, rewritingAnswers, withJson } from '../support/http.ts';
import { LIMIT_MINIMUMS } from '../../../contract/records.ts';

/** GET /version declares half the body limit the server enforces (never below the contract's minimum). */
export default httpDefect({
  name: 'body-limit-declared-below-enforced',
  clause: 'wire-body-limit',
  does: 'a body larger than the declared max_body_bytes is accepted: the server enforces twice the limit it declares',
  serverOptions: (o) => ({
    ...o,
    limits: { ...o.limits, max_body_bytes: 2 * (o.limits?.max_body_bytes ?? o.store.limits.max_body_bytes) },
  }),
  requests: (next) =>
    rewritingAnswers(next, (answer, req) => {
      const info =
        operationOf(req)?.operationId === 'getVersionInfo' ? (jsonOf(answer.body) as { limits?: Record<string, number> }) : undefined;
      if (!info?.limits?.['max_body_bytes']) return answer;
      const declared = Math.max(LIMIT_MINIMUMS.max_body_bytes, Math.floor(info.limits['max_body_bytes'] / 2));
      return withJson(answer, { ...info, limits: { ...info.limits, max_body_bytes: declared } });
    }),
});
