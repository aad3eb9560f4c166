import { httpDefect } from '../defect.ts';
import { rewritingJsonBodies } from '../support/http.ts';

/** Numbers are read into integer fields by truncation; the manifest, which is digested as sent, is left alone. */
function truncated(value: unknown, key = ''): unknown {
  if (key === 'manifest') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.trunc(value);
  if (Array.isArray(value)) return value.map((v) => truncated(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, truncated(v, k)]));
  return value;
}

export default httpDefect({
  name: 'fractions-truncated',
  clause: 'wire-integers',
  does: 'a number with a non-zero fraction in an integer field is truncated instead of INVALID_REQUEST',
  requests: (next) =>
    rewritingJsonBodies(
      next,
      (req) => req.method === 'PUT' || req.method === 'POST',
      (json) => truncated(json),
    ),
});
