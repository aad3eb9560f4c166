// What `fleetproof token` accepts: its summary and flags, as data. The
// dispatcher (main.ts) reads this alone for --help and to refuse an unknown
// flag, so it imports only what loads at once: never the command's module, nor
// a package a run needs (cli/test/answers-from-flags.test.ts).
import { ROLES } from '../../contract/records.ts';
import { DEFAULT_AUDIENCE, DEFAULT_TOKEN_TTL_SECONDS } from '../../contract/token-defaults.ts';
import type { FlagSpec } from '../args.ts';

export const summary = 'print a bearer token for the given roles and tenant';

export const FLAGS = {
  key: { type: 'string', description: 'private signing key (signing-key.jwk.json)' },
  roles: { type: 'string', description: `comma-separated roles: ${ROLES.join(', ')}` },
  tenant: {
    type: 'string',
    description: "tenant_id claim; the only source of tenant authority ('' for none, as a --token-cmd {tenant} gives it)",
  },
  ttl: { type: 'string', description: 'lifetime in seconds', default: String(DEFAULT_TOKEN_TTL_SECONDS) },
  audience: { type: 'string', description: 'aud claim', default: DEFAULT_AUDIENCE },
} satisfies Record<string, FlagSpec>;
