import { httpDefect } from '../defect.ts';
import { forOperations, rewritingJsonBodies } from '../support/http.ts';

const MAX = 4_294_967_295;
const clamp = (v: unknown, lo: number, hi: number) => (typeof v === 'number' ? Math.min(hi, Math.max(lo, v)) : v);

/** Out-of-range limits of an admission policy are brought into range instead of refused. */
export default httpDefect({
  name: 'policy-bounds-clamped',
  clause: 'records-policy-bounds',
  does: 'an admission policy with a limit out of bounds is stored with the limit clamped into bounds instead of INVALID_REQUEST',
  requests: (next) =>
    rewritingJsonBodies(next, forOperations('putAdmissionPolicy'), (json) => {
      if (json === null || typeof json !== 'object' || Array.isArray(json)) return json;
      const p = json as Record<string, unknown>;
      const out: Record<string, unknown> = { ...p, revision: clamp(p['revision'], 1, Number.MAX_SAFE_INTEGER) };
      for (const k of Object.keys(p)) if (/^max_.*_in_flight$/.test(k)) out[k] = clamp(p[k], 1, MAX);
      out['circuit_failure_threshold'] = clamp(p['circuit_failure_threshold'], 1, Number.MAX_SAFE_INTEGER);
      out['circuit_open_ms'] = clamp(p['circuit_open_ms'], 100, 3_600_000);
      return out;
    }),
});
