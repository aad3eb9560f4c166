import { httpDefect } from '../defect.ts';
import { rewritingAnswers } from '../support/http.ts';

export default httpDefect({
  name: 'head-limit-refusals-without-envelope',
  clause: 'wire-head-limits',
  does: 'URI_TOO_LONG and HEADERS_TOO_LARGE are answered with an empty body instead of the error envelope',
  requests: (next) =>
    rewritingAnswers(next, (answer) => (answer.status === 414 || answer.status === 431 ? { ...answer, body: Buffer.alloc(0) } : answer)),
});
