// Bearer token verification (spec.md [auth-bearer], [auth-signature],
// [auth-time], [auth-audience]). Verification is a pure function of the token
// string and the time, so a verified token is cached by its exact string until
// it expires; a cache hit re-checks `exp` and `nbf` against the time of the
// request and skips the signature check, which is most of the cost of a small
// request. A connection also remembers the header it last carried: a client
// that sends the same token again is found by comparing strings, without
// hashing the token (a few hundred bytes) for the cache.
import { REFERENCE_CHOICES, type ReferenceChoices } from '../domain/choices.ts';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { componentValidator } from '../../contract/schemas.ts';
import { TOKEN_ALGORITHM } from '../../contract/tokens.ts';
import { DEFAULT_AUDIENCE } from '../../contract/token-defaults.ts';
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
  /** `exp` with this registry's leeway: refused from this instant on. */
  expiresAtMs: number;
  /** `nbf` with this registry's leeway: refused before this instant (-Infinity without `nbf`). */
  notBeforeMs: number;
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
  private readonly lastOnConnection = new WeakMap<object, { header: string; token: string; entry: CachedToken }>();
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
   * waiting for anything; null when it is not cached. A cached token outside
   * its `nbf`..`exp` window is UNAUTHENTICATED. `connection` is any object
   * that lives as long as the client's connection.
   */
  cachedPrincipal(authorization: string | undefined, connection?: object): Principal | null {
    if (authorization === undefined) return null;
    const last = connection === undefined ? undefined : this.lastOnConnection.get(connection);
    if (last !== undefined && last.header === authorization) return this.hit(last.token, last.entry);
    // Cached keys are verified tokens, so a hit on the plain form needs no parsing.
    if (!authorization.startsWith('Bearer ')) return null;
    const token = authorization.slice(7);
    const cached = this.cache.get(token);
    if (!cached) return null;
    const principal = this.hit(token, cached);
    if (connection !== undefined) this.lastOnConnection.set(connection, { header: authorization, token, entry: cached });
    return principal;
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
    const nowMs = this.now();
    if (nowMs >= cached.expiresAtMs) {
      this.cache.delete(token);
      throw unauthenticated('the token has expired');
    }
    // Only a clock set back can bring this about: the token was verified inside its window.
    if (nowMs < cached.notBeforeMs) throw unauthenticated('the token is not valid yet');
    // A connection may still hold an entry the cache has evicted; it is not put back past the bound.
    if (this.moves - cached.movedAt >= this.cacheSize / 2 && this.cache.has(token)) this.moveToRecent(token, cached);
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
    const notBeforeMs = typeof payload.nbf === 'number' ? (payload.nbf - this.choices.nbfLeewaySeconds) * 1000 : -Infinity;
    if (nowMs < notBeforeMs) throw unauthenticated('the token is not valid yet');
    return { principal: this.principalOf(payload), expiresAtMs, notBeforeMs, movedAt: 0 };
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
