import { httpDefect } from '../defect.ts';
import { operationOf, sendError } from '../support/http.ts';

/** Record reads look the record up first, and only then at the caller. */
export default httpDefect({
  name: 'missing-record-before-token',
  clause: 'auth-before-state',
  does: 'a read of a record that does not exist is NOT_FOUND before the token or role is checked',
  requests: (next, parts) => (req, res) => {
    const op = operationOf(req);
    const lookups: Record<string, (id: string) => Promise<unknown>> = {
      getConnectorType: (id) => parts.store.getConnectorType(id),
      getVersion: (id) => parts.store.getVersion(id),
      getInstance: (id) => parts.store.getInstance(id),
      getReplica: (id) => parts.store.getReplica(id),
    };
    const lookup = op && lookups[op.operationId];
    const id = op ? Object.values(op.params)[0] : undefined;
    if (!lookup || id === undefined) return next(req, res);
    lookup(decodeURIComponent(id)).then(
      (found) => (found === null ? sendError(res, 'NOT_FOUND', 'no such record') : next(req, res)),
      () => next(req, res),
    );
  },
});
