import { httpDefect } from '../defect.ts';
import { forOperations } from '../support/http.ts';
import { remintingTokens, signedByTrustedKey } from '../support/tokens.ts';

const routing = forOperations('resolveRoute', 'getRoute', 'settleRoute');

export default httpDefect({
  name: 'dispatch-without-tenant-as-public',
  clause: 'auth-dispatch-needs-tenant',
  does: 'a routing request whose token has no tenant_id is served as the tenant "public" instead of FORBIDDEN',
  requests: (next, parts) =>
    remintingTokens(next, parts, 'dispatch-without-tenant-as-public', async (claims, req, token) =>
      routing(req) && claims['tenant_id'] === undefined && (await signedByTrustedKey(token, parts.jwks))
        ? { ...claims, tenant_id: 'public' }
        : null,
    ),
});
