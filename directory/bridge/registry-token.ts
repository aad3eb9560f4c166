// Tokens for the bridge's registry calls: one EdDSA JWT holding the two roles
// it needs, minted from the operator's signing key by the contract's minter,
// which re-mints it well before it expires, so a long-running bridge never
// presents an expired token.
import type { SigningKey } from '../../contract/tokens.ts';
import { TokenMinter } from '../../client/token-minter.ts';

export const BRIDGE_ROLES = ['registry:lifecycle', 'registry:reader'] as const;

export interface TokenSourceOptions {
  audience?: string;
  ttlSeconds?: number;
  /** Milliseconds since the epoch. */
  now?: () => number;
}

export function lifecycleTokenSource(key: SigningKey, options: TokenSourceOptions = {}): () => Promise<string> {
  const minter = new TokenMinter(key, { ...options, subject: 'fleetproof-directory-bridge' });
  return () => minter.mint({ roles: BRIDGE_ROLES });
}
