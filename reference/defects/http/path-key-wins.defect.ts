import { httpDefect } from '../defect.ts';
import { operationOf, rewritingJsonBodies } from '../support/http.ts';

/** Which body member holds the key each path parameter names. */
const KEYS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  putConnectorType: { type_id: 'id' },
  admitVersion: { version_id: 'id' },
  putInstance: { instance_id: 'id' },
  putBinding: { tenant_id: 'tenant_id', capability_id: 'capability_id', instance_id: 'instance_id' },
  putAdmissionPolicy: { policy_ref: 'policy_ref' },
  provisionReplica: { replica_id: 'id' },
};

export default httpDefect({
  name: 'path-key-wins',
  clause: 'wire-path-key',
  does: "a body whose key differs from the path is written under the path's key instead of INVALID_REQUEST",
  requests: (next) =>
    rewritingJsonBodies(
      next,
      (req) => (operationOf(req)?.operationId ?? '') in KEYS,
      (json, req) => {
        const op = operationOf(req)!;
        if (json === null || typeof json !== 'object' || Array.isArray(json)) return json;
        const fromPath = Object.entries(KEYS[op.operationId]!).map(([param, member]) => [
          member,
          decodeURIComponent(op.params[param] ?? ''),
        ]);
        return { ...json, ...Object.fromEntries(fromPath) };
      },
    ),
});
