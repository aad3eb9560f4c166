import { httpDefect } from '../defect.ts';

export default httpDefect({
  name: 'nbf-leeway-five-minutes',
  clause: 'auth-time',
  does: 'a token is accepted up to five minutes before its nbf',
  serverOptions: (o) => ({ ...o, choices: { ...o.choices, nbfLeewaySeconds: 300 } }),
});
