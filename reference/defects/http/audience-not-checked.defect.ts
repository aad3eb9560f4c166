import { DEFAULT_AUDIENCE } from '../../../contract/token-defaults.ts';
import { httpDefect } from '../defect.ts';
import { remintingTokens, signedByTrustedKey } from '../support/tokens.ts';

export default httpDefect({
  name: 'audience-not-checked',
  clause: 'auth-audience',
  does: 'a token for another audience is accepted',
  requests: (next, parts) =>
    remintingTokens(next, parts, 'audience-not-checked', async (claims, _req, token) => {
      const audiences = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
      if (audiences.includes(DEFAULT_AUDIENCE) || !(await signedByTrustedKey(token, parts.jwks))) return null;
      return { ...claims, aud: DEFAULT_AUDIENCE };
    }),
});
