import { httpDefect } from '../defect.ts';
import { forOperations, sendError } from '../support/http.ts';

const probe = forOperations('getHealth');

export default httpDefect({
  name: 'health-needs-token',
  clause: 'ops-health',
  does: 'GET /health without a token is UNAUTHENTICATED',
  requests: (next) => (req, res) =>
    probe(req) && req.headers.authorization === undefined ? sendError(res, 'UNAUTHENTICATED', 'a token is required') : next(req, res),
});
