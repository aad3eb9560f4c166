// Valid bearer tokens for any tenant and role set, minted from the signing key
// the registry trusts (spec.md §3): one per role set and tenant, reused until
// a fifth of its lifetime is left, so a long run never presents a token that
// expires in flight. Every token is remembered with the claims it carries, so
// an exchange can name its caller without ever showing the token.
import { SignJWT } from 'jose';
import type { Role } from '../contract/records.ts';
import { TOKEN_ALGORITHM, type SigningKey } from '../contract/tokens.ts';
import { DEFAULT_AUDIENCE, DEFAULT_TOKEN_TTL_SECONDS } from '../contract/token-defaults.ts';
import type { CallerSummary } from './exchange.ts';

export interface MintOptions {
  key: SigningKey;
  roles: readonly (Role | string)[];
  tenant?: string;
  ttlSeconds?: number;
  audience?: string;
  subject?: string;
  /** Seconds since the epoch to mint at; lets tests make expired or future tokens. */
  now?: number;
}

/** Signs one token; `exp` is always set ([auth-time]). */
export async function mintToken(options: MintOptions): Promise<string> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const ttl = options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (!Number.isSafeInteger(ttl)) throw new RangeError('ttlSeconds must be an integer');
  const claims: Record<string, unknown> = { scope: options.roles.join(' ') };
  if (options.tenant !== undefined) claims['tenant_id'] = options.tenant;
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: options.key.kid, typ: 'JWT' })
    .setAudience(options.audience ?? DEFAULT_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .setSubject(options.subject ?? (options.tenant !== undefined ? `tenant:${options.tenant}` : 'fleetproof'));
  return jwt.sign(options.key.key);
}

/** Who a request speaks as: the roles its token holds and, for tenant operations, the tenant. */
export interface Caller {
  roles: readonly string[];
  tenant?: string | undefined;
}

export interface TokenMinterOptions {
  audience?: string | undefined;
  ttlSeconds?: number;
  /** The `sub` claim; by default the tenant, or `fleetproof`. */
  subject?: string;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

/** A token is re-minted once only this fraction of its lifetime is left. */
const RENEW_WHEN_LEFT = 1 / 5;

export class TokenMinter {
  readonly audience: string;
  private readonly ttlSeconds: number;
  private readonly cache = new Map<string, { token: Promise<string>; renewAtMs: number }>();
  private readonly callers = new Map<string, CallerSummary>();

  constructor(
    readonly key: SigningKey,
    private readonly options: TokenMinterOptions = {},
  ) {
    this.audience = options.audience ?? DEFAULT_AUDIENCE;
    this.ttlSeconds = options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  }

  /** A valid token for these roles and tenant. */
  mint(caller: Caller): Promise<string> {
    const roles = [...caller.roles].sort();
    const tenant = caller.tenant ?? null;
    const cacheKey = JSON.stringify([roles, tenant]);
    const nowMs = (this.options.now ?? Date.now)();
    const cached = this.cache.get(cacheKey);
    if (cached && nowMs < cached.renewAtMs) return cached.token;
    const token = mintToken({
      key: this.key,
      roles,
      audience: this.audience,
      ttlSeconds: this.ttlSeconds,
      now: Math.floor(nowMs / 1000),
      ...(tenant !== null ? { tenant } : {}),
      ...(this.options.subject !== undefined ? { subject: this.options.subject } : {}),
    }).then((t) => (this.remember(t, { roles, tenant }), t));
    // A failed mint is not cached: the next request tries again.
    token.catch(() => this.cache.delete(cacheKey));
    this.cache.set(cacheKey, { token, renewAtMs: nowMs + Math.floor(this.ttlSeconds * 1000 * (1 - RENEW_WHEN_LEFT)) });
    return token;
  }

  /** The claims behind a token this minter made or was told about, for exchange records. */
  describe(token: string): CallerSummary | null {
    return this.callers.get(token) ?? null;
  }

  /** Names the caller of a token made elsewhere (a deliberately bad one), so its exchanges say who it claims to be. */
  remember(token: string, caller: CallerSummary): void {
    this.callers.set(token, caller);
  }
}
