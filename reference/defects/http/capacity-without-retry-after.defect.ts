import { httpDefect } from '../defect.ts';
import { rewritingAnswers } from '../support/http.ts';

export default httpDefect({
  name: 'capacity-without-retry-after',
  clause: 'error-capacity-guidance',
  does: 'CAPACITY_EXCEEDED is answered without its Retry-After header',
  requests: (next) =>
    rewritingAnswers(next, (answer) => {
      if (answer.status !== 429) return answer;
      const { 'retry-after': _dropped, ...headers } = answer.headers;
      return { ...answer, headers };
    }),
});
