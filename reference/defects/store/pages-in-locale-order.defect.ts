import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'pages-in-locale-order',
  clause: 'page-order',
  does: 'the definitions on a page are sorted by locale-aware, case-blind comparison instead of bytes',
  changes: (inner) => ({
    async queryCatalog(q, ctx) {
      const page = await inner.queryCatalog(q, ctx);
      const sorted = [...page.capabilities].sort((a, b) => a.capability.id.localeCompare(b.capability.id, 'en', { sensitivity: 'base' }));
      return { ...page, capabilities: sorted };
    },
  }),
});
