// Bearer tokens as the HTTP defects see them: the claims of a token without
// trusting it, whether the trusted set signed it, and a token with other
// claims signed by the trusted key, which is how a defect makes the server
// take a token the contract says it must refuse.
import type { IncomingMessage, RequestListener } from 'node:http';
import { compactVerify, createLocalJWKSet, decodeJwt, SignJWT, type JSONWebKeySet, type JWTPayload } from 'jose';
import { TOKEN_ALGORITHM } from '../../../contract/tokens.ts';
import type { AssembledParts } from '../../assembly.ts';

const BEARER = /^Bearer +([^\s]+) *$/i;

/** The token of an Authorization header, if it holds one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

/** The claims of a compact JWT, unverified; undefined when it is not one. */
export function claimsOf(token: string): JWTPayload | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}

/** Whether a key of the trusted set signed the token, whatever its claims say. */
export async function signedByTrustedKey(token: string, jwks: JSONWebKeySet): Promise<boolean> {
  try {
    await compactVerify(token, createLocalJWKSet(jwks), { algorithms: [TOKEN_ALGORITHM] });
    return true;
  } catch {
    return false;
  }
}

/** The key to sign with; a defect that re-signs tokens cannot run where the process holds only the public set. */
export function signingKeyOf(parts: AssembledParts, defect: string): NonNullable<AssembledParts['signingKey']> {
  if (!parts.signingKey) throw new Error(`defect ${defect} re-signs tokens and needs the private key of the trusted set`);
  return parts.signingKey;
}

/** A token with exactly these claims, signed by the trusted key. */
export function signed(claims: JWTPayload, key: NonNullable<AssembledParts['signingKey']>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: key.kid, typ: 'JWT' }).sign(key.key);
}

/**
 * A listener that, for each request whose token `change` has new claims for
 * (it answers null to leave a request alone), hands the server a token with
 * those claims signed by the trusted key instead.
 */
export function remintingTokens(
  next: RequestListener,
  parts: AssembledParts,
  defect: string,
  change: (claims: JWTPayload, req: IncomingMessage, token: string) => JWTPayload | null | Promise<JWTPayload | null>,
): RequestListener {
  const key = signingKeyOf(parts, defect);
  return (req, res) => {
    const token = bearerToken(req.headers.authorization) ?? req.headers.authorization?.trim().split(/\s+/).at(-1);
    const claims = token === undefined ? undefined : claimsOf(token);
    if (token === undefined || claims === undefined) return next(req, res);
    void Promise.resolve(change(claims, req, token)).then(
      async (changed) => {
        if (changed) req.headers.authorization = `Bearer ${await signed(changed, key)}`;
        next(req, res);
      },
      () => res.destroy(),
    );
  };
}
