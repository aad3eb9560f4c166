// What `fleetproof verify` accepts: its summary and flags, as data. The
// dispatcher (main.ts) reads this alone for --help and to refuse an unknown
// flag, so it imports only what loads at once: never the command's module, nor
// a package a run needs (cli/test/answers-from-flags.test.ts).
import type { FlagSpec } from '../args.ts';

export const summary = 'verify a signed certification bundle and the results it names';

export const FLAGS = {
  pubkey: {
    type: 'string',
    description:
      "the expected signer's public Ed25519 JWK or JWK set (default: the key beside the bundle, which proves integrity, not who signed)",
  },
} satisfies Record<string, FlagSpec>;

/** The bundle verified. */
export const POSITIONALS = 'BUNDLE';
