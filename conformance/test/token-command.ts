// A vendor's token command for tests: a small script that signs with the key
// the registry trusts, as a vendor's own token service would, run without a
// shell by `--token-cmd`. Plain Node and jose, so each call is quick.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const MINT_SCRIPT = (jose: string) => `
import { readFileSync } from 'node:fs';
import { importJWK, SignJWT } from ${JSON.stringify(jose)};
const [keyPath, roles, tenant] = process.argv.slice(2);
const jwk = JSON.parse(readFileSync(keyPath, 'utf8'));
const claims = { scope: roles.split(',').filter(Boolean).join(' ') };
if (tenant) claims.tenant_id = tenant;
const now = Math.floor(Date.now() / 1000);
const token = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: jwk.kid, typ: 'JWT' }).setAudience('fleetproof-registry').setIssuedAt(now).setExpirationTime(now + 3600).sign(await importJWK(jwk, 'EdDSA'));
process.stdout.write(token + '\\n');
`;

/** Writes the script into `dir`; the `--token-cmd` template that runs it with `keyPath`. */
export async function tokenCommandFor(dir: string, keyPath: string): Promise<string> {
  const script = join(dir, 'vendor-token.mjs');
  await writeFile(script, MINT_SCRIPT(import.meta.resolve('jose')));
  return [process.execPath, script, keyPath, '{roles}', '{tenant}'].map((w) => JSON.stringify(w)).join(' ');
}
