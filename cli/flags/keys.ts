// What `fleetproof keys` accepts: its summary and flags, as data. The
// dispatcher (main.ts) reads this alone for --help and to refuse an unknown
// flag, so it imports only what loads at once: never the command's module, nor
// a package a run needs (cli/test/answers-from-flags.test.ts).
import { JWKS_FILE, SIGNING_KEY_FILE } from '../../contract/token-defaults.ts';
import type { FlagSpec } from '../args.ts';

export const summary = 'write an Ed25519 signing key and its public JWK set';

export const FLAGS = {
  out: { type: 'string', description: `directory for ${SIGNING_KEY_FILE} and ${JWKS_FILE} (created if missing)` },
  force: { type: 'boolean', description: 'replace keys already in the directory' },
} satisfies Record<string, FlagSpec>;
