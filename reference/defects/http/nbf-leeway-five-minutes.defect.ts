import { httpDefect } from '../defect.ts';
import { nbfLeeway } from '../support/token-leeway.ts';

export default httpDefect({
  name: 'nbf-leeway-five-minutes',
  clause: 'auth-time',
  does: 'a token is accepted up to five minutes before its nbf',
  requests: nbfLeeway(300, 'nbf-leeway-five-minutes'),
});
