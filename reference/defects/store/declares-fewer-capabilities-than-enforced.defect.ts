import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'declares-fewer-capabilities-than-enforced',
  clause: 'limits-declared',
  does: 'GET /version declares one capability per version fewer than the registry enforces',
  changes: (inner) => ({
    limits: { ...inner.limits, max_capabilities_per_version: Math.max(1, inner.limits.max_capabilities_per_version - 1) },
  }),
});
