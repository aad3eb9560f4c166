import { componentSchema } from '../../../contract/openapi.ts';
import { httpDefect } from '../defect.ts';
import { operationOf, rewritingJsonBodies } from '../support/http.ts';

/** The top-level members the operation's body schema names, or null when it names none. */
function knownMembers(schema: unknown): Set<string> | null {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  const component = ref ? componentSchema(ref) : schema;
  const properties = (component as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? new Set(Object.keys(properties)) : null;
}

export default httpDefect({
  name: 'unknown-fields-dropped',
  clause: 'wire-closed-records',
  does: 'unknown top-level fields of a request body are dropped instead of refused with INVALID_REQUEST',
  requests: (next) =>
    rewritingJsonBodies(
      next,
      (req) => operationOf(req)?.entry.operation.requestBody !== undefined,
      (json, req) => {
        const known = knownMembers(operationOf(req)!.entry.operation.requestBody!.content['application/json']?.schema);
        if (!known || json === null || typeof json !== 'object' || Array.isArray(json)) return json;
        return Object.fromEntries(Object.entries(json).filter(([k]) => known.has(k)));
      },
    ),
});
