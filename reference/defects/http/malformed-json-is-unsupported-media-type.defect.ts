import { httpDefect } from '../defect.ts';
import { jsonOf, replayed, sendError, withBody } from '../support/http.ts';

export default httpDefect({
  name: 'malformed-json-is-unsupported-media-type',
  clause: 'wire-malformed-json',
  does: 'a body that is not well-formed JSON is UNSUPPORTED_MEDIA_TYPE instead of INVALID_REQUEST',
  requests: (next) =>
    withBody(
      next,
      (req) => (req.method === 'PUT' || req.method === 'POST') && /^\s*application\/json/i.test(req.headers['content-type'] ?? ''),
      (req, body, res) =>
        body.length > 0 && jsonOf(body) === undefined
          ? sendError(res, 'UNSUPPORTED_MEDIA_TYPE', 'the body is not JSON')
          : next(replayed(req, body), res),
    ),
});
