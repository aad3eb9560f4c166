import { storeDefect } from '../defect.ts';
import { cursorRefusalAnswered, fromTheStart, parseCursor } from '../support/cursors.ts';

/** A cursor that reads as `revision:id` but that the registry refuses (an id it never issued) starts the walk over. */
export default storeDefect({
  name: 'unreadable-cursor-restarts',
  clause: 'page-invalid-cursor',
  does: 'a cursor with bytes after an issued one, which the registry cannot read, starts the walk over instead of INVALID_REQUEST',
  changes: (inner) =>
    cursorRefusalAnswered(inner, (cursor, query) => {
      const c = parseCursor(cursor);
      return c !== null && c.lastId !== '' ? fromTheStart(query) : null;
    }),
});
