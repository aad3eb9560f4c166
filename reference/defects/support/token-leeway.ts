// Leeway past what the contract allows on a token's time claims. The
// server's own leeway is capped by its verifier, so these defects act in
// front of it: a trusted token whose `exp` passed at most `seconds` ago, or
// whose `nbf` is at most `seconds` ahead, reaches the server re-signed with
// that edge moved to now. Untrusted tokens pass untouched, so the signature
// check still refuses them.
import type { RequestListener } from 'node:http';
import type { AssembledParts } from '../../assembly.ts';
import { remintingTokens, signedByTrustedKey } from './tokens.ts';

export function expLeeway(seconds: number, defect: string): (next: RequestListener, parts: AssembledParts) => RequestListener {
  return (next, parts) =>
    remintingTokens(next, parts, defect, async (claims, _req, token) => {
      const nowS = Date.now() / 1000;
      const late = typeof claims.exp === 'number' ? nowS - claims.exp : -1;
      if (late < 0 || late > seconds || !(await signedByTrustedKey(token, parts.jwks))) return null;
      return { ...claims, exp: Math.ceil(nowS) + 60 };
    });
}

export function nbfLeeway(seconds: number, defect: string): (next: RequestListener, parts: AssembledParts) => RequestListener {
  return (next, parts) =>
    remintingTokens(next, parts, defect, async (claims, _req, token) => {
      const nowS = Date.now() / 1000;
      const early = typeof claims.nbf === 'number' ? claims.nbf - nowS : -1;
      if (early <= 0 || early > seconds || !(await signedByTrustedKey(token, parts.jwks))) return null;
      return { ...claims, nbf: Math.floor(nowS) };
    });
}
