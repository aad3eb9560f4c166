import { httpDefect } from '../defect.ts';
import { forOperations } from '../support/http.ts';
import { remintingTokens } from '../support/tokens.ts';

const catalogReads = forOperations('queryCatalog', 'getCatalogCapability');

/** The server is handed the token without its tenant claim, so it makes an internal read of it. */
export default httpDefect({
  name: 'unbound-wins-over-tenant',
  clause: 'catalog-tenant-precedence',
  does: 'a catalog read asking unbound=true with the internal role and a tenant claim gets the internal view instead of a tenant read',
  requests: (next, parts) =>
    remintingTokens(next, parts, 'unbound-wins-over-tenant', (claims, req) => {
      const unbound = new URL(req.url ?? '/', 'http://x').searchParams.get('unbound') === 'true';
      const internal = typeof claims['scope'] === 'string' && claims['scope'].split(' ').includes('registry:internal');
      if (!catalogReads(req) || !unbound || !internal || claims['tenant_id'] === undefined) return null;
      const { tenant_id: _dropped, ...rest } = claims;
      return rest;
    }),
});
