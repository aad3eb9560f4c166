import { httpDefect } from '../defect.ts';
import { errorCodeOf, jsonOf, rewritingAnswers, withJson } from '../support/http.ts';

export default httpDefect({
  name: 'fence-lost-named-stale-assignment',
  clause: 'error-catalogue-only',
  does: 'FENCE_LOST is answered with the code STALE_ASSIGNMENT, which the catalogue does not have',
  requests: (next) =>
    rewritingAnswers(next, (answer) => {
      if (errorCodeOf(answer) !== 'FENCE_LOST') return answer;
      const { error } = jsonOf(answer.body) as { error: Record<string, unknown> };
      return withJson(answer, { error: { ...error, code: 'STALE_ASSIGNMENT' } });
    }),
});
