// Who a request speaks as, kept apart from how it travels. The transport asks
// its Credentials for the headers of each request; what stands behind them —
// tokens minted from the signing key, tokens handed over in a run plan, a
// token command or static headers — is the credential source's business alone.
import type { CallerSummary } from './exchange.ts';
import type { Caller, TokenMinter } from './token-minter.ts';

export type { Caller } from './token-minter.ts';

/** Claims a token should carry, an exact token string, or nobody (no Authorization header). */
export type Speaker = Caller | { token: string } | null;

export interface Authorization {
  headers: Record<string, string>;
  /** Who the exchange record says spoke. */
  caller: CallerSummary | null;
}

export interface Credentials {
  authorize(speaker: Speaker): Promise<Authorization>;
}

const NOBODY: Authorization = { headers: {}, caller: null };

/** A token given as is: it is sent unchanged, and named as the source knows it. */
function givenToken(token: string, known: CallerSummary | null): Authorization {
  return { headers: { authorization: `Bearer ${token}` }, caller: known ?? { roles: [], tenant: null, note: 'token given as is' } };
}

function summary(caller: Caller): CallerSummary {
  return { roles: [...caller.roles], tenant: caller.tenant ?? null };
}

/** No credentials at all: every request is anonymous unless it carries a token of its own. */
export const anonymous: Credentials = {
  authorize: async (speaker) => (speaker !== null && 'token' in speaker ? givenToken(speaker.token, null) : NOBODY),
};

/** Tokens minted for exactly the caller each request names. */
export function mintedCredentials(minter: TokenMinter): Credentials {
  return {
    async authorize(speaker) {
      if (speaker === null) return NOBODY;
      if ('token' in speaker) return givenToken(speaker.token, minter.describe(speaker.token));
      return { headers: { authorization: `Bearer ${await minter.mint(speaker)}` }, caller: summary(speaker) };
    },
  };
}

/**
 * Tokens obtained elsewhere: `tokenFor` picks the one that speaks for a caller
 * (a run plan's tenant tokens, a long-lived service token).
 */
export function bearerCredentials(tokenFor: (caller: Caller) => string | Promise<string>): Credentials {
  return {
    async authorize(speaker) {
      if (speaker === null) return NOBODY;
      if ('token' in speaker) return givenToken(speaker.token, null);
      return { headers: { authorization: `Bearer ${await tokenFor(speaker)}` }, caller: summary(speaker) };
    },
  };
}
