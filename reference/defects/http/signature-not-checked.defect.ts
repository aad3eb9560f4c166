import { httpDefect } from '../defect.ts';
import { remintingTokens, signedByTrustedKey } from '../support/tokens.ts';

/** The claims of a token are trusted whoever signed it, with whatever algorithm, or no one. */
export default httpDefect({
  name: 'signature-not-checked',
  clause: 'auth-signature',
  does: 'a token with a bad signature, an unknown key, another algorithm or none is accepted on its claims',
  requests: (next, parts) =>
    remintingTokens(next, parts, 'signature-not-checked', async (claims, _req, token) =>
      (await signedByTrustedKey(token, parts.jwks)) ? null : claims,
    ),
});
