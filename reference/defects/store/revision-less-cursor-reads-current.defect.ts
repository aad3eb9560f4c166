import { RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { encodeCursor } from '../../domain/catalog.ts';
import { REFERENCE_CHOICES } from '../../domain/choices.ts';

/** The `:id` a cursor reads as when its revision part was cut out, plain or base64url. */
function revisionLess(cursor: string): string | null {
  const text = cursor.startsWith(':') ? cursor : Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith(':') && text.length > 1 ? text.slice(1) : null;
}

/** A cursor missing its revision is taken as one of the current revision, as a registry defaulting it would. */
export default storeDefect({
  name: 'revision-less-cursor-reads-current',
  clause: 'page-invalid-cursor',
  does: 'a cursor with its revision part empty continues the walk at the current revision instead of INVALID_REQUEST',
  changes: (inner) => ({
    async queryCatalog(query, ctx) {
      try {
        return await inner.queryCatalog(query, ctx);
      } catch (err) {
        const lastId = query.cursor === undefined ? null : revisionLess(query.cursor);
        if (!RegistryError.is(err) || err.code !== 'INVALID_REQUEST' || lastId === null) throw err;
        const cursors = query.cursor!.startsWith(':') ? 'revision-and-id' : 'base64url';
        const cursor = encodeCursor(await inner.catalogRevision(), lastId, { ...REFERENCE_CHOICES, cursors });
        return inner.queryCatalog({ ...query, cursor }, ctx);
      }
    },
  }),
});
