// Bearer tokens for the HTTP target, minted from the harness's signing key:
// one per role set and tenant, reused until shortly before it expires.
import type { Role } from '../../../contract/records.ts';
import { mintToken, type SigningKey } from '../../../contract/tokens.ts';

const TTL_SECONDS = 3600;
/** Re-mint this long before expiry so a token never expires in flight. */
const REFRESH_MARGIN_SECONDS = 300;

export class TokenMinter {
  private readonly cache = new Map<string, { token: string; expires: number }>();

  constructor(
    private readonly key: SigningKey,
    private readonly audience?: string,
  ) {}

  async token(roles: readonly Role[], tenant?: string): Promise<string> {
    const cacheKey = `${roles.join(' ')}\u001f${tenant ?? ''}`;
    const now = Math.floor(Date.now() / 1000);
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expires - REFRESH_MARGIN_SECONDS > now) return cached.token;
    const token = await mintToken({
      key: this.key,
      roles,
      ttlSeconds: TTL_SECONDS,
      now,
      ...(tenant !== undefined ? { tenant } : {}),
      ...(this.audience !== undefined ? { audience: this.audience } : {}),
    });
    this.cache.set(cacheKey, { token, expires: now + TTL_SECONDS });
    return token;
  }
}
