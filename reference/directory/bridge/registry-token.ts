// Tokens for the bridge's registry calls: one EdDSA JWT holding the two roles
// it needs, minted from the operator's signing key and re-minted well before
// it expires, so a long-running bridge never presents an expired token.
import { mintToken, type SigningKey } from '../../../contract/tokens.ts';

export const BRIDGE_ROLES = ['registry:lifecycle', 'registry:reader'] as const;

export interface TokenSourceOptions {
  audience?: string;
  ttlSeconds?: number;
  /** Milliseconds since the epoch. */
  now?: () => number;
}

export function lifecycleTokenSource(key: SigningKey, options: TokenSourceOptions = {}): () => Promise<string> {
  const ttl = options.ttlSeconds ?? 3600;
  const now = options.now ?? Date.now;
  let current: { token: string; renewAt: number } | undefined;
  return async () => {
    const at = now();
    if (!current || at >= current.renewAt) {
      const issuedAt = Math.floor(at / 1000);
      const token = await mintToken({ key, roles: BRIDGE_ROLES, ttlSeconds: ttl, now: issuedAt, subject: 'fleetproof-directory-bridge', ...(options.audience ? { audience: options.audience } : {}) });
      // Renew once four fifths of the lifetime have passed.
      current = { token, renewAt: at + Math.floor((ttl * 1000 * 4) / 5) };
    }
    return current.token;
  };
}
