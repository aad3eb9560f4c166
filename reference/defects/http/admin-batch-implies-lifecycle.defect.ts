import { httpDefect } from '../defect.ts';
import { forOperations } from '../support/http.ts';
import { remintingTokens, signedByTrustedKey } from '../support/tokens.ts';

const batch = forOperations('applyBatch');

/** A batch is authorised by its first role: registry:admin lets replica writes through too. */
export default httpDefect({
  name: 'admin-batch-implies-lifecycle',
  clause: 'batch-roles',
  does: 'a batch with replica writes is applied for a token with registry:admin but without registry:lifecycle',
  requests: (next, parts) =>
    remintingTokens(next, parts, 'admin-batch-implies-lifecycle', async (claims, req, token) => {
      const scope = typeof claims['scope'] === 'string' ? claims['scope'].split(' ') : [];
      if (
        !batch(req) ||
        !scope.includes('registry:admin') ||
        scope.includes('registry:lifecycle') ||
        !(await signedByTrustedKey(token, parts.jwks))
      )
        return null;
      return { ...claims, scope: [...scope, 'registry:lifecycle'].join(' ') };
    }),
});
