import { httpDefect } from '../defect.ts';
import { replayed, sendError, withBody } from '../support/http.ts';

/** A string with a lone UTF-16 surrogate cannot be stored as UTF-8, and the failure escapes as a crash. */
export default httpDefect({
  name: 'lone-surrogate-crashes',
  clause: 'error-no-server-error-on-input',
  does: 'a body holding a lone surrogate escape (\\ud800) is answered INTERNAL (500) instead of a 4xx',
  requests: (next) =>
    withBody(
      next,
      (req) => req.method === 'PUT' || req.method === 'POST',
      (req, body, res) =>
        /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])/.test(body.toString('latin1'))
          ? sendError(res, 'INTERNAL', 'the record could not be encoded')
          : next(replayed(req, body), res),
    ),
});
