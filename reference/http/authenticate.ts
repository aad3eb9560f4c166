// Bearer token verification (spec.md [auth-bearer], [auth-signature],
// [auth-time], [auth-audience]). Verification is a pure function of the token
// string and the time, so a verified token is cached by its exact string until
// it expires; a cache hit re-checks `exp` and skips the signature check, which
// is most of the cost of a small request.
import { REFERENCE_CHOICES, type ReferenceChoices } from '../domain/choices.ts';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { componentValidator } from '../../contract/schemas.ts';
import { DEFAULT_AUDIENCE, TOKEN_ALGORITHM } from '../../contract/tokens.ts';
import { RegistryError } from '../../contract/registry-error.ts';

/** Who is calling, as far as the registry is concerned: roles and tenant, nothing else. */
export interface Principal {
  roles: ReadonlySet<string>;
  /** The `tenant_id` claim; null when the token has none ([auth-tenant-from-token]). */
  tenantId: string | null;
  subject: string | null;
}

export interface TokenVerifierOptions {
  jwks: JSONWebKeySet;
  audience?: string;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  cacheSize?: number;
  /** [auth-time] and [auth-roles] as this registry chose them (the reference's: 0 s on exp, 30 s on nbf, 401). */
  choices?: Pick<ReferenceChoices, 'expLeewaySeconds' | 'nbfLeewaySeconds' | 'badClaimType'>;
}

/** [auth-time]: the most clock skew a registry may allow on either edge. */
export const NBF_SKEW_SECONDS = 30;
const DEFAULT_CACHE_SIZE = 10_000;
const BEARER = /^Bearer +([^\s]+) *$/i;

interface CachedToken {
  principal: Principal;
  expiresAtMs: number;
  /** The value of `moves` when the entry last moved to the recent end. */
  movedAt: number;
}

const unauthenticated = (message: string) => new RegistryError('UNAUTHENTICATED', message);

export class TokenVerifier {
  private readonly keys: ReturnType<typeof createLocalJWKSet>;
  private readonly audience: string;
  private readonly now: () => number;
  private readonly cacheSize: number;
  // Insertion order doubles as recency order. A hit moves its entry to the
  // recent end only once it has drifted into the older half, so a token in
  // steady use costs one lookup, and eviction still takes the least recent.
  private readonly cache = new Map<string, CachedToken>();
  private moves = 0;
  private readonly tenantIdValid = componentValidator('TenantId');
  private readonly choices: NonNullable<TokenVerifierOptions['choices']>;

  constructor(options: TokenVerifierOptions) {
    this.keys = createLocalJWKSet(options.jwks);
    this.audience = options.audience ?? DEFAULT_AUDIENCE;
    this.now = options.now ?? Date.now;
    this.cacheSize = options.cacheSize ?? DEFAULT_CACHE_SIZE;
    this.choices = options.choices ?? REFERENCE_CHOICES;
  }

  /** How many verified tokens are cached; never more than the cache size. */
  get cachedTokens(): number {
    return this.cache.size;
  }

  /** Whether a token is cached as verified; for diagnostics and tests. */
  holds(token: string): boolean {
    return this.cache.has(token);
  }

  /**
   * The principal of a header whose token is cached as verified, without
   * waiting for anything; null when it is not cached. An expired cached
   * token is UNAUTHENTICATED.
   */
  cachedPrincipal(authorization: string | undefined): Principal | null {
    // Cached keys are verified tokens, so a hit on the plain form needs no parsing.
    if (authorization === undefined || !authorization.startsWith('Bearer ')) return null;
    const token = authorization.slice(7);
    const cached = this.cache.get(token);
    return cached ? this.hit(token, cached) : null;
  }

  /** The principal of an `Authorization` header value, or UNAUTHENTICATED. */
  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (authorization === undefined) throw unauthenticated('an Authorization: Bearer token is required');
    const m = BEARER.exec(authorization);
    if (!m) throw unauthenticated('the Authorization header must be "Bearer <JWT>"');
    const token = m[1]!;
    const cached = this.cache.get(token);
    if (cached) return this.hit(token, cached);
    const entry = await this.verify(token, this.now());
    if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    this.moveToRecent(token, entry);
    return entry.principal;
  }

  private hit(token: string, cached: CachedToken): Principal {
    if (this.now() >= cached.expiresAtMs) {
      this.cache.delete(token);
      throw unauthenticated('the token has expired');
    }
    if (this.moves - cached.movedAt >= this.cacheSize / 2) this.moveToRecent(token, cached);
    return cached.principal;
  }

  private moveToRecent(token: string, entry: CachedToken): void {
    this.cache.delete(token);
    entry.movedAt = ++this.moves;
    this.cache.set(token, entry);
  }

  private async verify(token: string, nowMs: number): Promise<CachedToken> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        algorithms: [TOKEN_ALGORITHM],
        audience: this.audience,
        requiredClaims: ['exp'],
        clockTolerance: NBF_SKEW_SECONDS,
        currentDate: new Date(nowMs),
      }));
    } catch (err) {
      throw unauthenticated(`the token is not valid: ${(err as { code?: string }).code ?? 'ERR_JWT_INVALID'}`);
    }
    // jose grants one skew to both edges; each edge gets the leeway this registry chose.
    const expiresAtMs = (payload.exp as number) * 1000 + this.choices.expLeewaySeconds * 1000;
    if (nowMs >= expiresAtMs) throw unauthenticated('the token has expired');
    if (typeof payload.nbf === 'number' && nowMs < (payload.nbf - this.choices.nbfLeewaySeconds) * 1000)
      throw unauthenticated('the token is not valid yet');
    return { principal: this.principalOf(payload), expiresAtMs, movedAt: 0 };
  }

  private principalOf(payload: JWTPayload): Principal {
    const { scope, tenant_id: tenantId, sub } = payload as JWTPayload & { scope?: unknown; tenant_id?: unknown };
    const refuse = (message: string) => new RegistryError(this.choices.badClaimType, message);
    if (scope !== undefined && typeof scope !== 'string') throw refuse('the scope claim must be a string');
    if (tenantId !== undefined && !this.tenantIdValid(tenantId)) throw refuse('the tenant_id claim is not a valid tenant id');
    const roles = new Set((scope ?? '').split(' ').filter((r) => r !== ''));
    return { roles, tenantId: (tenantId as string | undefined) ?? null, subject: sub ?? null };
  }
}
