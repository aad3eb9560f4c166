import { httpDefect } from '../defect.ts';
import { rewritingAnswers, withJson } from '../support/http.ts';

export default httpDefect({
  name: 'unsupported-method-is-not-found',
  clause: 'wire-unknown-route',
  does: 'a known path with a method it does not support is NOT_FOUND instead of METHOD_NOT_ALLOWED',
  requests: (next) =>
    rewritingAnswers(next, (answer) =>
      answer.status === 405 ? withJson(answer, { error: { code: 'NOT_FOUND', message: 'no operation here' } }, 404) : answer,
    ),
});
