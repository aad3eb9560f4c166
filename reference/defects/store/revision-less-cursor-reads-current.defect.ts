import { storeDefect } from '../defect.ts';
import { encodeCursor } from '../../domain/catalog.ts';
import { REFERENCE_CHOICES } from '../../domain/choices.ts';
import { cursorRefusalAnswered } from '../support/cursors.ts';

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
  changes: (inner) =>
    cursorRefusalAnswered(inner, async (cursor, query) => {
      const lastId = revisionLess(cursor);
      if (lastId === null) return null;
      const cursors = cursor.startsWith(':') ? 'revision-and-id' : 'base64url';
      return { ...query, cursor: encodeCursor(await inner.catalogRevision(), lastId, { ...REFERENCE_CHOICES, cursors }) };
    }),
});
