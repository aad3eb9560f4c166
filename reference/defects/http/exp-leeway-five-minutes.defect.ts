import { httpDefect } from '../defect.ts';

export default httpDefect({
  name: 'exp-leeway-five-minutes',
  clause: 'auth-time',
  does: 'a token is accepted up to five minutes after its exp',
  serverOptions: (o) => ({ ...o, choices: { ...o.choices, expLeewaySeconds: 300 } }),
});
