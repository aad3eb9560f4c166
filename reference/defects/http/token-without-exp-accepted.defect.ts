import { httpDefect } from '../defect.ts';
import { remintingTokens } from '../support/tokens.ts';

export default httpDefect({
  name: 'token-without-exp-accepted',
  clause: 'auth-time',
  does: 'a token without an exp claim is accepted as if it never expired',
  requests: (next, parts) =>
    remintingTokens(next, parts, 'token-without-exp-accepted', (claims) =>
      claims.exp === undefined ? { ...claims, exp: Math.floor(Date.now() / 1000) + 3600 } : null,
    ),
});
