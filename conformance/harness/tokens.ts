// The harness's tokens: valid ones for any tenant and role from the
// contract's minter, plus the deliberately bad tokens the authentication
// cases present, each remembered with the claims it pretends to carry so an
// exchange can name its caller without ever showing the token.
import { generateKeyPair, SignJWT, base64url } from 'jose';
import { createHmac } from 'node:crypto';
import { mintToken, TOKEN_ALGORITHM, type SigningKey } from '../../contract/tokens.ts';
import { TokenMinter, type Caller } from '../../contract/transport/token-minter.ts';
import type { ServerClock } from './clock.ts';
import { HarnessError } from './failure.ts';

export type { Caller };

/** Long enough for most runs; the minter renews a token well before it expires anyway. */
const TOKEN_TTL_SECONDS = 4 * 3600;

/**
 * [auth-time] allows up to 30 s of skew on `exp` and on `nbf`, so the
 * time-bound tokens sit outside those edges on the target's clock: `exp`
 * this far before its now, `nbf` this far after it, each widened by the clock
 * estimate's uncertainty so the token is on the wrong side whatever the true
 * offset. A registry with more leeway than the contract allows accepts them.
 */
export const EXPIRED_BY_MS = 60_000;
export const NOT_BEFORE_AHEAD_MS = 60_000;
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

export class HarnessTokens extends TokenMinter {
  constructor(key: SigningKey, audience: string) {
    super(key, { audience, ttlSeconds: TOKEN_TTL_SECONDS });
  }

  /**
   * A token that must be refused with UNAUTHENTICATED, carrying these roles
   * and tenant otherwise. `expired` and `not-yet-valid` are placed on the
   * target's clock, so they need it.
   */
  async forged(kind: ForgedToken, caller: Caller, clock?: ServerClock): Promise<string> {
    const token = await this.forge(kind, caller, clock);
    this.remember(token, { roles: [...caller.roles], tenant: caller.tenant ?? null, note: `forged: ${kind}` });
    return token;
  }

  private claims(caller: Caller): Record<string, unknown> {
    const claims: Record<string, unknown> = { scope: caller.roles.join(' ') };
    if (caller.tenant !== undefined) claims['tenant_id'] = caller.tenant;
    return claims;
  }

  /** The target's now in ms, when it is known well enough to place a token at the edge of [auth-time]. */
  private serverNow(kind: ForgedToken, clock: ServerClock | undefined): number {
    if (!clock) throw new Error(`a ${kind} token is placed on the target's clock: pass ctx.clock`);
    if (!(clock.uncertaintyMs <= MAX_TOKEN_CLOCK_UNCERTAINTY_MS)) {
      throw new HarnessError(
        `the target's clock is known only to ±${clock.uncertaintyMs} ms (${clock.source}); a ${kind} token cannot be placed near enough to the edge of [auth-time] to judge`,
      );
    }
    return clock.now();
  }

  private async forge(kind: ForgedToken, caller: Caller, clock: ServerClock | undefined): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: TOKEN_ALGORITHM, kid: this.key.kid, typ: 'JWT' };
    const base = () => new SignJWT(this.claims(caller)).setProtectedHeader(header).setAudience(this.audience).setSubject('fleetproof-conformance');
    switch (kind) {
      case 'expired': {
        // Expired a minute ago on the target's clock: beyond the 30 s of skew the contract allows on exp.
        const serverMs = this.serverNow(kind, clock);
        const exp = Math.floor((serverMs - EXPIRED_BY_MS - clock!.uncertaintyMs) / 1000);
        return base().setIssuedAt(exp - 3600).setExpirationTime(exp).sign(this.key.key);
      }
      case 'without-exp':
        return base().setIssuedAt(now).sign(this.key.key);
      case 'not-yet-valid': {
        // Valid a minute from now on the target's clock: beyond the 30 s of skew the contract allows on nbf.
        const serverMs = this.serverNow(kind, clock);
        const nbf = Math.ceil((serverMs + NOT_BEFORE_AHEAD_MS + clock!.uncertaintyMs) / 1000);
        return base().setIssuedAt(Math.floor(serverMs / 1000)).setNotBefore(nbf).setExpirationTime(nbf + 3600).sign(this.key.key);
      }
      case 'wrong-audience':
        return mintToken({ key: this.key, roles: caller.roles, audience: `${this.audience}-elsewhere`, ...(caller.tenant ? { tenant: caller.tenant } : {}) });
      case 'unknown-key': {
        // Same kid, different private key: the signature cannot verify.
        const { privateKey } = await generateKeyPair(TOKEN_ALGORITHM, { crv: 'Ed25519' });
        return base().setIssuedAt(now).setExpirationTime(now + 3600).sign(privateKey);
      }
      case 'unknown-kid': {
        const { privateKey } = await generateKeyPair(TOKEN_ALGORITHM, { crv: 'Ed25519' });
        const jwt = new SignJWT(this.claims(caller)).setProtectedHeader({ ...header, kid: `${this.key.kid}-unknown` }).setAudience(this.audience);
        return jwt.setIssuedAt(now).setExpirationTime(now + 3600).sign(privateKey);
      }
      case 'alg-none':
        return `${this.segment({ alg: 'none', typ: 'JWT' })}.${this.segment(this.payload(caller, now))}.`;
      case 'alg-hs256': {
        // The classic confusion: HMAC keyed with the public key's bytes.
        const signingInput = `${this.segment({ alg: 'HS256', kid: this.key.kid, typ: 'JWT' })}.${this.segment(this.payload(caller, now))}`;
        const secret = Buffer.from(String(this.key.jwk.x ?? ''), 'base64url');
        return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
      }
      case 'tampered-payload': {
        const valid = await mintToken({ key: this.key, roles: ['registry:reader'], audience: this.audience });
        const [h, , s] = valid.split('.');
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
