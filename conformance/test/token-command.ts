// A vendor's token service for tests: a loopback HTTP server that signs with
// the key the registry trusts, as a vendor's own token service would, and the
// `--token-cmd` that asks it (curl, run without a shell, {tenant} and {roles}
// substituted into the query). One process per token, and a light one: a run
// asks for hundreds of tenants' tokens.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type SigningKey } from '../../contract/tokens.ts';
import { mintToken } from '../../client/token-minter.ts';

export interface TokenService {
  /** The --token-cmd template. */
  tokenCmd: string;
  /** How many tokens it has issued. */
  issued(): number;
  /** Tokens issued per roles and tenant, keyed `roles tenant`. */
  issuedPerCaller(): Map<string, number>;
  close(): Promise<void>;
}

export async function startTokenService(key: SigningKey): Promise<TokenService> {
  let issued = 0;
  const perCaller = new Map<string, number>();
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const tenant = query.get('tenant') ?? '';
    const roles = (query.get('roles') ?? '').split(',').filter(Boolean);
    mintToken({ key, roles, ttlSeconds: 3600, ...(tenant ? { tenant } : {}) }).then(
      (token) => {
        issued++;
        const caller = `${query.get('roles') ?? ''} ${tenant}`;
        perCaller.set(caller, (perCaller.get(caller) ?? 0) + 1);
        res.end(`${token}\n`);
      },
      (err: Error) => ((res.statusCode = 500), res.end(err.message)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    tokenCmd: `curl -sS --fail "http://127.0.0.1:${port}/token?tenant={tenant}&roles={roles}"`,
    issued: () => issued,
    issuedPerCaller: () => perCaller,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
