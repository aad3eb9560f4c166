import { httpDefect } from '../defect.ts';
import { operationOf, sendError } from '../support/http.ts';
import { bearerToken, claimsOf } from '../support/tokens.ts';

/** The roles are read from the token's claims before its signature and times are checked. */
export default httpDefect({
  name: 'role-checked-before-token',
  clause: 'error-precedence',
  does: "a request whose token is invalid and lacks the operation's role is FORBIDDEN instead of UNAUTHENTICATED",
  requests: (next) => (req, res) => {
    const roles = operationOf(req)?.entry.roles;
    const token = bearerToken(req.headers.authorization);
    const claims = token === undefined ? undefined : claimsOf(token);
    const scope = typeof claims?.['scope'] === 'string' ? claims['scope'].split(' ') : null;
    if (roles && scope && roles.some((r) => !scope.includes(r))) return sendError(res, 'FORBIDDEN', 'the token lacks a role');
    next(req, res);
  },
});
