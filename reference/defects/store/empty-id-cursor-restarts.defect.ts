import { storeDefect } from '../defect.ts';
import { cursorRefusalAnswered, fromTheStart, parseCursor } from '../support/cursors.ts';

/** A cursor whose id part was cut off is read as "from the start". */
export default storeDefect({
  name: 'empty-id-cursor-restarts',
  clause: 'page-invalid-cursor',
  does: 'a cursor of the current revision with its id part empty starts the walk over instead of INVALID_REQUEST',
  changes: (inner) => cursorRefusalAnswered(inner, (cursor, query) => (parseCursor(cursor)?.lastId === '' ? fromTheStart(query) : null)),
});
