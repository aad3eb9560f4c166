import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'page-limit-clamped',
  clause: 'page-limit',
  does: 'a limit above max_page_size is clamped to it instead of INVALID_REQUEST',
  changes: (inner) => ({
    queryCatalog: (q, ctx) =>
      inner.queryCatalog(
        q.limit !== undefined && q.limit > inner.limits.max_page_size ? { ...q, limit: inner.limits.max_page_size } : q,
        ctx,
      ),
  }),
});
