import { httpDefect } from '../defect.ts';
import { errorCodeOf, jsonOf, rewritingAnswers, withJson } from '../support/http.ts';

export default httpDefect({
  name: 'conflict-without-envelope',
  clause: 'error-body',
  does: 'a CONFLICT answer carries {code, message} at the top of its body instead of inside "error"',
  requests: (next) =>
    rewritingAnswers(next, (answer) =>
      errorCodeOf(answer) === 'CONFLICT' ? withJson(answer, (jsonOf(answer.body) as { error: unknown }).error) : answer,
    ),
});
