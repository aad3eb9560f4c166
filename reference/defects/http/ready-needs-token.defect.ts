import { httpDefect } from '../defect.ts';
import { forOperations, sendError } from '../support/http.ts';

const probe = forOperations('getReady');

export default httpDefect({
  name: 'ready-needs-token',
  clause: 'ops-ready',
  does: 'GET /ready without a token is UNAUTHENTICATED',
  requests: (next) => (req, res) =>
    probe(req) && req.headers.authorization === undefined ? sendError(res, 'UNAUTHENTICATED', 'a token is required') : next(req, res),
});
