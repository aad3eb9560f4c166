import { httpDefect } from '../defect.ts';
import { expLeeway } from '../support/token-leeway.ts';

export default httpDefect({
  name: 'exp-leeway-45-seconds',
  clause: 'auth-time',
  does: 'a token is accepted up to 45 s after its exp, 15 s more than the contract allows',
  requests: expLeeway(45, 'exp-leeway-45-seconds'),
});
