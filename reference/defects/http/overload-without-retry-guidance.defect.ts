import { httpDefect } from '../defect.ts';
import { errorCodeOf, jsonOf, rewritingAnswers, withJson } from '../support/http.ts';

export default httpDefect({
  name: 'overload-without-retry-guidance',
  clause: 'failure-overload',
  does: 'the STORAGE_UNAVAILABLE answer of a saturated storage carries neither retry_after_ms nor Retry-After',
  requests: (next) =>
    rewritingAnswers(next, (answer) => {
      if (errorCodeOf(answer) !== 'STORAGE_UNAVAILABLE') return answer;
      const { error } = jsonOf(answer.body) as { error: Record<string, unknown> };
      const { retry_after_ms: _ms, ...rest } = error;
      const { 'retry-after': _header, ...headers } = answer.headers;
      return withJson({ ...answer, headers }, { error: rest });
    }),
});
