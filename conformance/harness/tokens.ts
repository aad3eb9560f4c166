// The harness's tokens: valid ones for any tenant and role from the run's one
// token source (minted with the signing key the registry trusts, or printed by
// the vendor's --token-cmd), plus the deliberately bad tokens the
// authentication cases present, each remembered with the claims it pretends
// to carry so an exchange can name its caller without ever showing the token.
// A bad token that only the trusted key could sign (expired, wrong audience)
// is not provocable without it; one signed by a stranger always is.
import { generateKeyPair, SignJWT, base64url, decodeJwt, decodeProtectedHeader } from 'jose';
import { createHmac } from 'node:crypto';
import { TOKEN_ALGORITHM, type SigningKey } from '../../contract/tokens.ts';
import { credentialsOf, type CredentialChoice } from '../../client/credential-sources.ts';
import type { Credentials } from '../../client/credentials.ts';
import type { CallerSummary } from '../../client/exchange.ts';
import { TokenMinter, type Caller } from '../../client/token-minter.ts';
import type { ServerClock } from './clock.ts';
import { CaseNotProvocable, HarnessError, NeedsTrustedKey } from './failure.ts';

export type { Caller };

/** Long enough for most runs; the minter renews a token well before it expires anyway. */
const TOKEN_TTL_SECONDS = 4 * 3600;

/**
 * [auth-time] allows up to 30 s of skew on `exp` and on `nbf`, so the
 * time-bound tokens sit outside those edges on the target's clock: `exp`
 * this far before its now, `nbf` this far after it, each widened by the clock
 * estimate's uncertainty so the token is on the wrong side whatever the true
 * offset. They lie 31 to 32 s (whole seconds) plus that uncertainty past
 * now, so a registry allowing more leeway than that accepts them.
 */
export const EXPIRED_BY_MS = 31_000;
export const NOT_BEFORE_AHEAD_MS = 31_000;
/** Beyond this uncertainty the tokens would prove only a leeway far above the contract's. */
export const MAX_TOKEN_CLOCK_UNCERTAINTY_MS = 10_000;

export type ForgedToken =
  | 'expired'
  | 'without-exp'
  | 'not-yet-valid'
  | 'wrong-audience'
  | 'unknown-key'
  | 'unknown-kid'
  | 'alg-none'
  | 'alg-hs256'
  | 'tampered-payload'
  | 'not-a-jws';

/** What each token that needs the trusted key would have been, for the skip's reason. */
const SIGNED_BY_THE_TRUSTED_KEY: Partial<Record<ForgedToken | 'short-lived', string>> = {
  'short-lived': 'a correctly signed token whose exp is a few seconds ahead',
  expired: 'a correctly signed token whose exp has passed',
  'without-exp': 'a correctly signed token without exp',
  'not-yet-valid': 'a correctly signed token whose nbf is ahead',
  'wrong-audience': 'a correctly signed token for another audience',
  'alg-hs256': "an HS256 token keyed with the trusted key's public bytes",
};

/** The kid a stranger's token claims when the run knows none of the registry's. */
const STRANGER_KID = 'fleetproof-stranger';

export class HarnessTokens {
  /** The run's credentials: every request speaks through them, and they name the caller of every token made here. */
  readonly credentials: Credentials;
  private readonly signer: TokenMinter | null;
  private readonly named = new Map<string, CallerSummary>();
  private sample: Promise<{ token: string; kid: string | null; audience: string | null }> | undefined;

  /**
   * `key` is the signing key the registry trusts, or null when the vendor's
   * own credentials (`choice`) authenticate the run; valid tokens come from
   * the token command when there is one, else from the key.
   */
  constructor(
    key: SigningKey | null,
    readonly audience: string,
    choice: CredentialChoice = {},
  ) {
    this.signer = key ? new TokenMinter(key, { audience, ttlSeconds: TOKEN_TTL_SECONDS }) : null;
    const base = credentialsOf(choice, this.signer);
    this.credentials = {
      authorize: async (speaker) => {
        const given = await base.authorize(speaker);
        const known = speaker !== null && 'token' in speaker ? this.named.get(speaker.token) : undefined;
        return known ? { ...given, caller: known } : given;
      },
    };
  }

  /** A valid bearer token for these roles and tenant, as the run's requests carry it. */
  async mint(caller: Caller): Promise<string> {
    const { headers } = await this.credentials.authorize({
      roles: caller.roles,
      ...(caller.tenant !== undefined ? { tenant: caller.tenant } : {}),
    });
    const bearer = /^Bearer (\S+)$/.exec(headers['authorization'] ?? '');
    if (!bearer)
      throw new CaseNotProvocable(
        'the run authenticates without a bearer token (--header without Authorization), so no token can be presented otherwise',
      );
    return bearer[1]!;
  }

  /** Obtains this caller's credentials now (minted, or the token command run), so a burst does not wait for them. */
  warm(caller: Caller): Promise<unknown> {
    return this.credentials.authorize({ roles: caller.roles, ...(caller.tenant !== undefined ? { tenant: caller.tenant } : {}) });
  }

  /** The claims behind a token made here, for exchange records. */
  describe(token: string): CallerSummary | null {
    return this.named.get(token) ?? this.signer?.describe(token) ?? null;
  }

  /**
   * A token that must be refused with UNAUTHENTICATED, carrying these roles
   * and tenant otherwise. `expired` and `not-yet-valid` are placed on the
   * target's clock, so they need it.
   */
  async forged(kind: ForgedToken, caller: Caller, clock?: ServerClock): Promise<string> {
    const token = await this.forge(kind, caller, clock);
    this.named.set(token, { roles: [...caller.roles], tenant: caller.tenant ?? null, note: `forged: ${kind}` });
    return token;
  }

  /**
   * A valid token whose `exp` lies at least `validForMs` ahead of the target's now and whose `nbf` as far
   * behind it (each widened by the clock's uncertainty, in whole seconds): inside both edges of [auth-time]
   * for that long, whatever leeway the registry allows. `expMs` is its exp on the target's clock.
   */
  async shortLived(caller: Caller, clock: ServerClock, validForMs: number): Promise<{ token: string; expMs: number }> {
    const key = this.trusted('short-lived');
    const serverMs = this.serverNow('short-lived', clock);
    const exp = Math.ceil((serverMs + validForMs + clock.uncertaintyMs) / 1000);
    const nbf = Math.floor((serverMs - validForMs - clock.uncertaintyMs) / 1000);
    const token = await new SignJWT(this.claims(caller))
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: key.kid, typ: 'JWT' })
      .setAudience(this.audience)
      .setSubject('fleetproof-conformance')
      .setIssuedAt(nbf)
      .setNotBefore(nbf)
      .setExpirationTime(exp)
      .sign(key.key);
    this.named.set(token, {
      roles: [...caller.roles],
      tenant: caller.tenant ?? null,
      note: `valid until ${new Date(exp * 1000).toISOString()}`,
    });
    return { token, expMs: exp * 1000 };
  }

  private claims(caller: Caller): Record<string, unknown> {
    const claims: Record<string, unknown> = { scope: caller.roles.join(' ') };
    if (caller.tenant !== undefined) claims['tenant_id'] = caller.tenant;
    return claims;
  }

  /** The target's now in ms, when it is known well enough to place a token at the edge of [auth-time]. */
  private serverNow(kind: ForgedToken | 'short-lived', clock: ServerClock | undefined): number {
    if (!clock) throw new Error(`a ${kind} token is placed on the target's clock: pass ctx.clock`);
    if (!(clock.uncertaintyMs <= MAX_TOKEN_CLOCK_UNCERTAINTY_MS)) {
      throw new HarnessError(
        `the target's clock is known only to ±${clock.uncertaintyMs} ms (${clock.source}); a ${kind} token cannot be placed near enough to the edge of [auth-time] to judge`,
      );
    }
    return clock.now();
  }

  /** The trusted key, for the tokens only it can sign. */
  private trusted(kind: ForgedToken | 'short-lived'): SigningKey {
    if (!this.signer) throw new NeedsTrustedKey(SIGNED_BY_THE_TRUSTED_KEY[kind] ?? kind);
    return this.signer.key;
  }

  /** A valid token of the run's and the kid and audience it carries (a token command's JWTs name the registry's own). */
  private validSample(): Promise<{ token: string; kid: string | null; audience: string | null }> {
    this.sample ??= this.mint({ roles: ['registry:reader'] }).then((token) => {
      try {
        const aud = decodeJwt(token).aud;
        return { token, kid: decodeProtectedHeader(token).kid ?? null, audience: Array.isArray(aud) ? (aud[0] ?? null) : (aud ?? null) };
      } catch {
        return { token, kid: null, audience: null };
      }
    });
    this.sample.catch(() => (this.sample = undefined));
    return this.sample;
  }

  /** A token signed by a key the registry has never seen, claiming `kid` and the run's audience. */
  private async stranger(caller: Caller, kid: string, now: number): Promise<string> {
    const sample = this.signer ? null : await this.validSample();
    const { privateKey } = await generateKeyPair(TOKEN_ALGORITHM, { crv: 'Ed25519' });
    return new SignJWT(this.claims(caller))
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid, typ: 'JWT' })
      .setAudience(sample?.audience ?? this.audience)
      .setSubject('fleetproof-conformance')
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
  }

  private async forge(kind: ForgedToken, caller: Caller, clock: ServerClock | undefined): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const signed = () => {
      const key = this.trusted(kind);
      return new SignJWT(this.claims(caller))
        .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: key.kid, typ: 'JWT' })
        .setAudience(this.audience)
        .setSubject('fleetproof-conformance');
    };
    switch (kind) {
      case 'expired': {
        // Expired 31 s ago on the target's clock, just beyond the 30 s of skew the contract allows on exp.
        const token = signed();
        const serverMs = this.serverNow(kind, clock);
        const exp = Math.floor((serverMs - EXPIRED_BY_MS - clock!.uncertaintyMs) / 1000);
        return token
          .setIssuedAt(exp - 3600)
          .setExpirationTime(exp)
          .sign(this.trusted(kind).key);
      }
      case 'without-exp':
        return signed().setIssuedAt(now).sign(this.trusted(kind).key);
      case 'not-yet-valid': {
        // Valid 31 s from now on the target's clock, just beyond the 30 s of skew the contract allows on nbf.
        const token = signed();
        const serverMs = this.serverNow(kind, clock);
        const nbf = Math.ceil((serverMs + NOT_BEFORE_AHEAD_MS + clock!.uncertaintyMs) / 1000);
        return token
          .setIssuedAt(Math.floor(serverMs / 1000))
          .setNotBefore(nbf)
          .setExpirationTime(nbf + 3600)
          .sign(this.trusted(kind).key);
      }
      case 'wrong-audience':
        return signed()
          .setAudience(`${this.audience}-elsewhere`)
          .setIssuedAt(now)
          .setExpirationTime(now + 3600)
          .sign(this.trusted(kind).key);
      case 'unknown-key': {
        // The kid of the registry's key, another private key: the signature cannot verify.
        const kid = this.signer?.key.kid ?? (await this.validSample()).kid ?? STRANGER_KID;
        return this.stranger(caller, kid, now);
      }
      case 'unknown-kid': {
        const kid = this.signer?.key.kid ?? (await this.validSample()).kid ?? STRANGER_KID;
        return this.stranger(caller, `${kid}-unknown`, now);
      }
      case 'alg-none':
        return `${this.segment({ alg: 'none', typ: 'JWT' })}.${this.segment(this.payload(caller, now))}.`;
      case 'alg-hs256': {
        // The classic confusion: HMAC keyed with the public key's bytes.
        const key = this.trusted(kind);
        const signingInput = `${this.segment({ alg: 'HS256', kid: key.kid, typ: 'JWT' })}.${this.segment(this.payload(caller, now))}`;
        const secret = Buffer.from(String(key.jwk.x ?? ''), 'base64url');
        return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
      }
      case 'tampered-payload': {
        // A valid token of the run's with its payload replaced: the signature no longer covers it.
        const valid = this.signer ? await this.signer.mint({ roles: ['registry:reader'] }) : (await this.validSample()).token;
        const [h, , s] = valid.split('.');
        if (s === undefined) throw new CaseNotProvocable("the run's tokens are not compact JWS, so none can be edited");
        return `${h}.${this.segment(this.payload(caller, now))}.${s}`;
      }
      case 'not-a-jws':
        return 'not-a-jwt-at-all';
    }
  }

  private payload(caller: Caller, now: number): Record<string, unknown> {
    return { ...this.claims(caller), aud: this.audience, iat: now, exp: now + 3600, sub: 'fleetproof-conformance' };
  }

  private segment(value: unknown): string {
    return base64url.encode(JSON.stringify(value));
  }
}
