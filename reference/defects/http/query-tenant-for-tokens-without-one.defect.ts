import { httpDefect } from '../defect.ts';
import { forOperations } from '../support/http.ts';
import { remintingTokens, signedByTrustedKey } from '../support/tokens.ts';

const catalogReads = forOperations('queryCatalog', 'getCatalogCapability');

export default httpDefect({
  name: 'query-tenant-for-tokens-without-one',
  clause: 'failure-no-tenant',
  does: 'a catalog read whose token has no tenant claim is served for the tenant a tenant_id query parameter names',
  requests: (next, parts) =>
    remintingTokens(next, parts, 'query-tenant-for-tokens-without-one', async (claims, req, token) => {
      const named = new URL(req.url ?? '/', 'http://x').searchParams.get('tenant_id');
      if (!catalogReads(req) || named === null || claims['tenant_id'] !== undefined || !(await signedByTrustedKey(token, parts.jwks)))
        return null;
      return { ...claims, tenant_id: named };
    }),
});
