import { httpDefect } from '../defect.ts';
import { expLeeway } from '../support/token-leeway.ts';

export default httpDefect({
  name: 'exp-leeway-five-minutes',
  clause: 'auth-time',
  does: 'a token is accepted up to five minutes after its exp',
  requests: expLeeway(300, 'exp-leeway-five-minutes'),
});
