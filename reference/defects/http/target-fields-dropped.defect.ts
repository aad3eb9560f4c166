import { httpDefect } from '../defect.ts';
import { forOperations, rewritingJsonBodies } from '../support/http.ts';

const ROUTE_REQUEST = new Set(['action_id', 'capability_id', 'topology']);

export default httpDefect({
  name: 'target-fields-dropped',
  clause: 'route-request',
  does: 'a route request naming an instance, replica, endpoint, credential, peer key or tenant is routed, those fields ignored, instead of INVALID_REQUEST',
  requests: (next) =>
    rewritingJsonBodies(next, forOperations('resolveRoute'), (json) =>
      json !== null && typeof json === 'object' && !Array.isArray(json)
        ? Object.fromEntries(Object.entries(json).filter(([k]) => ROUTE_REQUEST.has(k)))
        : json,
    ),
});
