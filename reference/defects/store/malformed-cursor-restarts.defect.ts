import { storeDefect } from '../defect.ts';
import { cursorRefusalAnswered, fromTheStart } from '../support/cursors.ts';

export default storeDefect({
  name: 'malformed-cursor-restarts',
  clause: 'page-invalid-cursor',
  does: 'a cursor this registry could not have issued starts the walk over instead of INVALID_REQUEST',
  changes: (inner) => cursorRefusalAnswered(inner, (_cursor, query) => fromTheStart(query)),
});
