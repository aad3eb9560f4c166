// `fleetproof keys`: a signing key pair for tokens. The private JWK stays with
// whoever mints tokens (a harness, an operator); the public set goes to every
// registry that should trust them (`fleetproof serve --jwks`).
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSigningKeys } from '../contract/tokens.ts';
import { JWKS_FILE, SIGNING_KEY_FILE } from '../contract/token-defaults.ts';
import { parseFlags, UsageError } from './args.ts';

import { FLAGS, summary } from './flags/keys.ts';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('keys', summary, FLAGS, argv);
  if (!parsed) return 0;
  const dir = parsed.values.out;
  if (dir === undefined || dir === '') throw new UsageError(`--out is required`);
  // Replacing a signing key silently would invalidate every token minted with it.
  if (!parsed.values.force && ((await exists(join(dir, SIGNING_KEY_FILE))) || (await exists(join(dir, JWKS_FILE))))) {
    console.error(`fleetproof keys: ${dir} already holds keys; pass --force to replace them`);
    return 2;
  }
  const files = await writeSigningKeys(dir);
  console.log(`signing key: ${files.signingKeyPath}`);
  console.log(`jwks: ${files.jwksPath}`);
  return 0;
}
