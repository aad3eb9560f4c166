import { httpDefect } from '../defect.ts';
import { replayed, sendError, withBody } from '../support/http.ts';
import { nestingDepth } from '../support/json-depth.ts';

/** The contract's bound is 128 levels accepted, 129 refused; this registry refuses 128 already. */
const REFUSED_FROM = 128;

export default httpDefect({
  name: 'nesting-bound-too-low',
  clause: 'wire-nesting',
  does: 'a body nested 128 levels deep, which the contract accepts, is INVALID_REQUEST',
  requests: (next) =>
    withBody(
      next,
      (req) => req.method === 'PUT' || req.method === 'POST',
      (req, body, res) =>
        nestingDepth(body) >= REFUSED_FROM
          ? sendError(res, 'INVALID_REQUEST', 'the body nests too deeply')
          : next(replayed(req, body), res),
    ),
});
