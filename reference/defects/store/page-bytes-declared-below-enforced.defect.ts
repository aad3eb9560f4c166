import { storeDefect } from '../defect.ts';

/**
 * Declares a page byte bound as small as the contract allows (the capability
 * bound) while its pages still fill up to its own, larger one.
 */
export default storeDefect({
  name: 'page-bytes-declared-below-enforced',
  clause: 'page-bytes',
  does: 'pages add up to more than the max_page_bytes the registry declares',
  changes: (inner) => ({
    limits: { ...inner.limits, max_page_bytes: inner.limits.max_capability_bytes },
  }),
});
