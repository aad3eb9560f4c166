import { httpDefect } from '../defect.ts';
import { jsonOf, operationOf, rewritingAnswers, withJson } from '../support/http.ts';

export default httpDefect({
  name: 'version-declares-other-contract',
  clause: 'ops-version',
  does: 'GET /version declares the contract fleetproof-registry/v2 instead of fleetproof-registry/v1',
  requests: (next) =>
    rewritingAnswers(next, (answer, req) =>
      operationOf(req)?.operationId === 'getVersionInfo' && answer.status === 200
        ? withJson(answer, { ...(jsonOf(answer.body) as object), contract: 'fleetproof-registry/v2' })
        : answer,
    ),
});
