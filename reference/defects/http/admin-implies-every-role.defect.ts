import { httpDefect } from '../defect.ts';
import { remintingTokens, signedByTrustedKey } from '../support/tokens.ts';

const EVERY_ROLE = [
  'registry:admin',
  'registry:lifecycle',
  'registry:reader',
  'registry:dispatch',
  'registry:operator',
  'registry:internal',
];

export default httpDefect({
  name: 'admin-implies-every-role',
  clause: 'auth-roles',
  does: 'a token with registry:admin is granted every other role as well',
  requests: (next, parts) =>
    remintingTokens(next, parts, 'admin-implies-every-role', async (claims, _req, token) => {
      const scope = typeof claims['scope'] === 'string' ? claims['scope'].split(' ') : [];
      if (!scope.includes('registry:admin') || EVERY_ROLE.every((r) => scope.includes(r)) || !(await signedByTrustedKey(token, parts.jwks)))
        return null;
      return { ...claims, scope: EVERY_ROLE.join(' ') };
    }),
});
