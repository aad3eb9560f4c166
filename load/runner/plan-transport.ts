// The audit and the retirement read and write the target with the tokens the
// run plan holds (minted before the run, so a distributed merge needs no
// signing key): a tenant's dispatch token for its routes, the control token
// for everything else.
import { withStaticHeaders } from '../../client/credential-sources.ts';
import { bearerCredentials, type Caller, type Credentials } from '../../client/credentials.ts';
import { HttpTransport } from '../../client/http-transport.ts';
import { tenantId, type RunPlan } from './run-plan.ts';

/** A read or write the target does not answer within this long is an error of the audit. */
const TIMEOUT_MS = 30_000;

/** The plan's token that speaks for a caller; undefined for a tenant the plan has none for. */
export function planTokenFor(plan: RunPlan): (caller: Caller) => string | undefined {
  const tenantTokens = new Map(plan.tokens.tenants.map((t, i) => [tenantId(plan.run_id, i + 1), t]));
  return (caller) => (caller.tenant === undefined ? plan.tokens.control : tenantTokens.get(caller.tenant));
}

export function planTransport(plan: RunPlan, connections: number): HttpTransport {
  const tokenFor = planTokenFor(plan);
  const bearer = bearerCredentials((caller) => {
    const token = tokenFor(caller);
    if (token === undefined) throw new Error(`the run plan holds no token for tenant ${caller.tenant}`);
    return token;
  });
  // Where static headers authenticate, the plan holds no tokens and a caller sends the headers alone.
  const tokenOrHeaders: Credentials = {
    authorize: async (speaker) =>
      speaker !== null && !('token' in speaker) && tokenFor(speaker) === ''
        ? { headers: {}, caller: { roles: [...speaker.roles], tenant: speaker.tenant ?? null } }
        : bearer.authorize(speaker),
  };
  const credentials = withStaticHeaders(tokenOrHeaders, Object.entries(plan.headers ?? {}));
  return new HttpTransport({ baseUrl: plan.target, credentials, connections, timeoutMs: TIMEOUT_MS });
}
