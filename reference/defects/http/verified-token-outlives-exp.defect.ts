import { httpDefect } from '../defect.ts';
import { bearerToken, claimsOf, signed, signedByTrustedKey, signingKeyOf } from '../support/tokens.ts';

/**
 * A registry that remembers the tokens it verified and never looks at their
 * `exp` again: a token first seen while valid is accepted after it expired.
 * The server is handed a token with the same claims and a later `exp`.
 */
export default httpDefect({
  name: 'verified-token-outlives-exp',
  clause: 'auth-time',
  does: 'a token verified while it was valid is accepted again after its exp plus leeway',
  build: () => {
    const seenValid = new Map<string, Promise<string>>();
    return {
      requests: (next, parts) => {
        const key = signingKeyOf(parts, 'verified-token-outlives-exp');
        return (req, res) => {
          const token = bearerToken(req.headers.authorization);
          const claims = token === undefined ? undefined : claimsOf(token);
          if (token === undefined || typeof claims?.exp !== 'number') return next(req, res);
          const nowS = Date.now() / 1000;
          const remembered = seenValid.get(token);
          if (remembered && claims.exp <= nowS) {
            void remembered.then((fresh) => {
              req.headers.authorization = `Bearer ${fresh}`;
              next(req, res);
            });
            return;
          }
          if (!remembered && claims.exp > nowS)
            void signedByTrustedKey(token, parts.jwks).then((trusted) => {
              if (trusted) seenValid.set(token, signed({ ...claims, exp: Math.ceil(nowS) + 86_400 }, key));
            });
          next(req, res);
        };
      },
    };
  },
});
