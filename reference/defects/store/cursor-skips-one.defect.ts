import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'cursor-skips-one',
  clause: 'page-cursor',
  does: 'a page continued from a cursor leaves out the first match after it',
  changes: (inner) => ({
    async queryCatalog(q, ctx) {
      const page = await inner.queryCatalog(q, ctx);
      return q.cursor === undefined || page.capabilities.length === 0 ? page : { ...page, capabilities: page.capabilities.slice(1) };
    },
  }),
});
