import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'total-counts-the-page',
  clause: 'page-revision',
  does: "a page's total counts the definitions on that page instead of every match",
  changes: (inner) => ({
    async queryCatalog(q, ctx) {
      const page = await inner.queryCatalog(q, ctx);
      return { ...page, total: page.capabilities.length };
    },
  }),
});
