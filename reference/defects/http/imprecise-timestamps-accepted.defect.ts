import { httpDefect } from '../defect.ts';
import { rewritingJsonBodies } from '../support/http.ts';

const SECONDS_ONLY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,2}))?Z$/;

/** Timestamps with fewer than three digits of fraction are padded to milliseconds rather than refused. */
function padded(value: unknown): unknown {
  if (typeof value === 'string') {
    const m = SECONDS_ONLY.exec(value);
    return m ? `${m[1]}.${(m[2] ?? '').padEnd(3, '0')}Z` : value;
  }
  if (Array.isArray(value)) return value.map(padded);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, padded(v)]));
  return value;
}

export default httpDefect({
  name: 'imprecise-timestamps-accepted',
  clause: 'wire-timestamps',
  does: 'a timestamp with second or centisecond precision is accepted and padded instead of INVALID_REQUEST',
  requests: (next) => rewritingJsonBodies(next, (req) => req.method === 'PUT' || req.method === 'POST', padded),
});
